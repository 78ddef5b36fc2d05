/**
 * One naming rule for the wire, so importers never guess (docs/architecture.md, Tree): a zod schema is exported
 * as `fooSchema` and its type as `Foo` beside it. Maps of schemas (`…Schemas`) hold schemas and are exempt.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const srcDir = join(import.meta.dirname, '../src');
const modules = readdirSync(srcDir).filter((f) => f.endsWith('.ts'));

describe('contract naming', () => {
  it('finds the modules', () => {
    expect(modules).toContain('accounts.ts');
    expect(modules).toContain('servers.ts');
  });

  it.each(modules)('%s: every exported zod schema is named …Schema', async (file) => {
    const exports = (await import(join(srcDir, file))) as Record<string, unknown>;
    const misnamed = Object.entries(exports)
      .filter(([, value]) => value instanceof z.ZodType)
      .map(([name]) => name)
      .filter((name) => !name.endsWith('Schema'));
    expect(misnamed).toEqual([]);
  });

  it.each(modules)('%s: every fooSchema has its type Foo in the same module', (file) => {
    const text = readFileSync(join(srcDir, file), 'utf8');
    const schemas = [...text.matchAll(/^export const (\w+)Schema\b/gm)].map((m) => m[1] ?? '');
    const missing = schemas
      .map((base) => base.charAt(0).toUpperCase() + base.slice(1))
      .filter((type) => !new RegExp(`^export type ${type}\\b`, 'm').test(text));
    expect(missing).toEqual([]);
  });
});
