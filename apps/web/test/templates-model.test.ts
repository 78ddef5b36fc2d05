import { describe, expect, it } from 'vitest';
import { templateSchema, type Environment } from '@hearth/contract';
import {
  canAdd,
  formatPortBinding,
  newEnvironment,
  rematchDefault,
  removeEnvironment,
  saveEnvironment,
  unusedTypes,
} from '../src/features/templates/model/environments';
import { convertV1Text, fromJsonText, toJsonText } from '../src/features/templates/model/json-view';
import { closeEditor, saveItem, startAdd, startEdit } from '../src/features/templates/model/list-edit';
import { changeProcessorType, newProcessor } from '../src/features/templates/model/processors';
import {
  changeVariableType,
  newVariable,
  renameVariable,
  variableNameError,
} from '../src/features/templates/model/variables';

describe('template editor rules', () => {
  it('refuses empty variable names and names with spaces', () => {
    expect(variableNameError('')).toBe('templates.variables.nameRule');
    expect(variableNameError('two words')).toBe('templates.variables.nameRule');
    expect(variableNameError('tab\there')).toBe('templates.variables.nameRule');
    expect(variableNameError('bot-js-file')).toBeNull();
  });

  it('creates an empty options list when a variable becomes an option, keeping existing options', () => {
    expect(changeVariableType(newVariable(), 'option').options).toEqual([]);
    const withOptions = { ...newVariable(), options: [{ value: 'a', display: 'A' }] };
    expect(changeVariableType(withOptions, 'option').options).toEqual([{ value: 'a', display: 'A' }]);
    expect(changeVariableType(newVariable(), 'integer').options).toBeUndefined();
  });

  it('renames a variable in place', () => {
    const data = { a: newVariable(), b: newVariable(), c: newVariable() };
    expect(Object.keys(renameVariable(data, 'b', 'bee', newVariable()))).toEqual(['a', 'bee', 'c']);
    expect(Object.keys(renameVariable(data, 'new', 'd', newVariable()))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('clears a processor’s fields when its type changes; new processors are commands', () => {
    expect(changeProcessorType({ type: 'download', files: ['x'] }, 'mkdir')).toEqual({ type: 'mkdir' });
    expect(newProcessor().type).toBe('command');
  });

  it('adds environments only while a type is unused, each type once; removal and default re-matching', () => {
    let list: Environment[] = [newEnvironment('tty')];
    expect(unusedTypes(list)).toEqual(['standard', 'docker']);
    list = saveEnvironment(list, newEnvironment('docker')) ?? [];
    list = saveEnvironment(list, newEnvironment('standard')) ?? [];
    expect(canAdd(list)).toBe(false);
    expect(saveEnvironment(list, newEnvironment('tty'))).toBeNull();
    expect(saveEnvironment(list, newEnvironment('tty'), 1)).toBeNull();
    const edited = { ...newEnvironment('docker'), image: 'node:20' } as Environment;
    expect(saveEnvironment(list, edited, 1)?.[1]).toEqual(edited);

    const defaultEnv = newEnvironment('docker');
    expect(rematchDefault(defaultEnv, list)).toBe(list[1]);
    const withoutDocker = removeEnvironment(list, 1);
    expect(withoutDocker.map((e) => e.type)).toEqual(['tty', 'standard']);
    expect(rematchDefault(defaultEnv, withoutDocker)).toBe(withoutDocker[0]);
    expect(formatPortBinding({ outside: 25565, inside: 25565 })).toBe('{ip}:25565:25565/tcp');
  });

  it('removes a new list item when its overlay is closed unsaved, keeps it once saved', () => {
    const start = { items: ['a'], editing: null, isNew: false };
    const adding = startAdd(start, 'b');
    expect(adding).toEqual({ items: ['a', 'b'], editing: 1, isNew: true });
    expect(closeEditor(adding).items).toEqual(['a']);
    const saved = saveItem(adding, 'bee');
    expect(saved).toEqual({ items: ['a', 'bee'], editing: null, isNew: false });
    expect(closeEditor(startEdit(saved, 1)).items).toEqual(['a', 'bee']);
  });

  it('switches editor → JSON → editor without losing anything', () => {
    const template = templateSchema.parse({
      display: 'X',
      type: 'x',
      data: { port: { type: 'integer', value: 1 }, mode: { type: 'option', options: [{ value: 'a' }] } },
      install: [{ type: 'javadl', version: '21' }, { commands: 'echo' }],
      run: { command: 'go', stopCode: 2, environmentVars: { A: 'b' }, pre: [{ type: 'mkdir', target: 'x' }] },
      environment: { type: 'docker', image: 'node' },
      supportedEnvironments: [{ type: 'docker', image: 'node' }, { type: 'tty' }],
    });
    const back = fromJsonText(toJsonText(template));
    expect(back).toEqual({ kind: 'ok', template });
  });

  it('reports invalid JSON, names a bad field, and offers 1.x conversion', () => {
    expect(fromJsonText('{ nope')).toEqual({ kind: 'invalid', messageKey: 'errors.ErrInvalidJson' });
    expect(fromJsonText('{"run":{},"data":{"a":{"type":"float"}}}')).toMatchObject({ field: 'data.a.type' });
    const v1 = fromJsonText('{"pufferd":{"display":"Old","run":{"program":"a","arguments":["b"]}}}');
    expect(v1.kind).toBe('v1');
    if (v1.kind !== 'v1') return;
    const converted = convertV1Text(v1.raw);
    expect(converted.kind === 'ok' && converted.template.run.command).toBe('a b');
    expect(converted.kind === 'ok' && converted.template.name).toBe('old');
  });
});
