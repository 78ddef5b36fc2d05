import { describe, expect, it } from 'vitest';
import { AppError, templateSchema, type TemplateInput } from '@hearth/contract';
import {
  applyDataUpdate,
  assertVariableTypes,
  substitute,
  substituteDeep,
  substitutionsFor,
} from '../../src/server/variables';

function definition(data: TemplateInput['data']) {
  return templateSchema.parse({ run: { command: 'true' }, data });
}

describe('variable substitution', () => {
  const def = definition({
    memory: { type: 'integer', value: 1024 },
    motd: { type: 'string', value: 'Hello ${serverId}' },
    eula: { type: 'boolean', value: true },
    mode: { type: 'option', value: 'survival', options: [{ value: 'survival' }, { value: 'creative' }] },
    unset: { type: 'integer' },
  });
  const values = substitutionsFor(def, 'srv1', '/srv/hearth/srv1');

  it('offers every variable as text plus rootDir and serverId', () => {
    expect(values).toMatchObject({
      memory: '1024',
      eula: 'true',
      mode: 'survival',
      unset: '0',
      rootDir: '/srv/hearth/srv1',
      serverId: 'srv1',
    });
  });

  it('replaces every ${name} and leaves unknown names as written', () => {
    expect(substitute('java -Xmx${memory}M -jar ${rootDir}/s.jar ${memory}', values)).toBe(
      'java -Xmx1024M -jar /srv/hearth/srv1/s.jar 1024',
    );
    expect(substitute('echo ${HOME} $memory ${', values)).toBe('echo ${HOME} $memory ${');
  });

  it('substitutes once: a value holding ${…} is not expanded again', () => {
    expect(substitute('${motd}', values)).toBe('Hello ${serverId}');
  });

  it('substitutes every string inside lists and maps, leaving other values alone', () => {
    const processor = { type: 'download', files: ['${rootDir}/a', 'b-${serverId}'], n: 3, on: true };
    expect(substituteDeep(processor, values)).toEqual({
      type: 'download',
      files: ['/srv/hearth/srv1/a', 'b-srv1'],
      n: 3,
      on: true,
    });
  });
});

describe('variable types', () => {
  it('refuses a definition whose variable does not fit its type, naming it', () => {
    const bad = definition({ memory: { type: 'integer', value: 'lots' } });
    expect(() => assertVariableTypes(bad)).toThrow(AppError);
    try {
      assertVariableTypes(bad);
    } catch (err) {
      expect((err as AppError).code).toBe('ErrVariableType');
      expect((err as AppError).metadata).toEqual({
        field: 'memory',
        type: 'integer',
        reason: 'not an integer',
      });
    }
  });

  it('applies updates with coercion and refuses unknown names and wrong types', () => {
    const def = definition({
      memory: { type: 'integer', value: 1 },
      eula: { type: 'boolean', value: false },
    });
    const next = applyDataUpdate(def, { memory: { value: '2048' }, eula: { value: 'true' } });
    expect(next.data.memory?.value).toBe(2048);
    expect(next.data.eula?.value).toBe(true);
    expect(def.data.memory?.value).toBe(1); // the original is not changed
    expect(() => applyDataUpdate(def, { nope: { value: 1 } })).toThrow(/not|unknown/i);
    expect(() => applyDataUpdate(def, { memory: { value: 1.5 } })).toThrow(AppError);
  });

  it('refuses values out of bounds on create and on update, naming the field', () => {
    const bounded = (data: TemplateInput['data']) => () => assertVariableTypes(definition(data));
    const port = { type: 'integer' as const, min: 1, max: 65535 };
    expect(bounded({ port: { ...port, value: 1e20 } })).toThrow(/'port'/);
    expect(bounded({ port: { ...port, value: 99999999 } })).toThrow(AppError);
    expect(bounded({ motd: { type: 'string', value: 'a\nset op true' } })).toThrow(/'motd'/);
    expect(bounded({ motd: { type: 'string', value: 'x'.repeat(2 * 1024 * 1024) } })).toThrow(AppError);
    expect(bounded({ port: { ...port, value: 25565 }, motd: { type: 'string', value: 'ok' } })).not.toThrow();
    const def = definition({ port: { ...port, value: 25565 } });
    expect(() => applyDataUpdate(def, { port: { value: 65536 } })).toThrow(/'port'/);
  });
});

describe('substituteDeep and command steps', () => {
  it('leaves the lines of a command step for per-argument substitution, substituting the rest', () => {
    const values = { v: 'a b', rootDir: '/r', serverId: 's' };
    expect(substituteDeep({ type: 'command', commands: ['echo ${v}'], note: '${v}' }, values)).toEqual({
      type: 'command',
      commands: ['echo ${v}'],
      note: 'a b',
    });
    expect(substituteDeep({ type: 'writefile', text: '${v}' }, values)).toEqual({
      type: 'writefile',
      text: 'a b',
    });
  });
});
