/** A template's `query` (docs/daemon.md § Player counts): kept through parsing, refused when it is not one. */
import { describe, expect, it } from 'vitest';
import { templateSchema } from '../src';

const base = { run: { command: 'game' } };

describe('template query', () => {
  it('keeps a gamedig type with a port variable or number, and is absent when not declared', () => {
    expect(templateSchema.parse({ ...base, query: { type: 'minetest', port: 'port' } }).query).toEqual({
      type: 'minetest',
      port: 'port',
    });
    expect(templateSchema.parse({ ...base, query: { type: 'minecraft', port: 25565 } }).query?.port).toBe(
      25565,
    );
    expect(templateSchema.parse(base).query).toBeUndefined();
  });

  it('refuses a type that is not a game type, a port out of range and unknown keys', () => {
    for (const query of [
      { type: '' },
      { type: 'Minecraft' },
      { type: '../etc' },
      { type: 'minecraft', port: 70000 },
      { type: 'minecraft', port: '' },
      { type: 'minecraft', host: '10.0.0.1' },
      'minecraft',
    ]) {
      expect(templateSchema.safeParse({ ...base, query }).success, JSON.stringify(query)).toBe(false);
    }
  });
});
