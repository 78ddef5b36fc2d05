import { describe, expect, it } from 'vitest';
import { AppError, stopSettingOf } from '@hearth/contract';
import { convertTemplate, detectFormat } from '@hearth/contract/template-convert/index';
import { loadTemplate, parseTemplateText, serializeTemplate } from '../../src/modules/templates/template-io';
import { corpusSamples } from './corpus';

const samples = corpusSamples();

function load(generation: string, name: string) {
  const sample = samples.find((s) => s.generation === generation && s.name === name);
  if (!sample) throw new Error(`no sample ${generation}/${name}`);
  return loadTemplate(parseTemplateText(sample.text), { name });
}

describe('round trip of every PufferPanel sample', () => {
  it('finds both generations in the corpus', () => {
    expect(samples.filter((s) => s.generation === 'v1').length).toBeGreaterThanOrEqual(2);
    expect(samples.filter((s) => s.generation === 'v2.6').length).toBeGreaterThanOrEqual(5);
  });

  it.each(samples.map((s) => [`${s.generation}/${s.name}`, s] as const))('%s', (_label, sample) => {
    const first = loadTemplate(parseTemplateText(sample.text), { name: sample.name });
    const saved = serializeTemplate(first.template);
    const second = loadTemplate(parseTemplateText(saved), { name: sample.name });
    expect(serializeTemplate(second.template)).toBe(saved);
    expect(second.format).toBe('v2');
    expect(second.warnings.filter((w) => w.code === 'convertedFromV1')).toEqual([]);
  });
});

describe('1.x conversion', () => {
  it('unwraps pufferd, flattens install, joins program and arguments', () => {
    const { template, format, warnings } = load('v1', 'factorio');
    expect(format).toBe('v1');
    expect(warnings.map((w) => w.code)).toEqual(['convertedFromV1']);
    expect(template.name).toBe('factorio');
    expect(template.install).toHaveLength(1);
    expect(template.install[0]).toMatchObject({ type: 'command' });
    expect(template.run.command).toBe(
      './factorio/bin/x64/factorio --port ${port} --bind ${ip} --start-server ${save} --server-settings ${server-settings}',
    );
    expect(template.supportedEnvironments).toEqual([{ type: 'tty' }]);
    expect(template.environment).toEqual({ type: 'tty' });
    expect(template.data.save?.type).toBe('string');
    expect(stopSettingOf(template.run)).toEqual({ type: 'command', value: '/quit' });
  });

  it('slugifies the name from display when no import name is given', () => {
    const sample = samples.find((s) => s.generation === 'v1' && s.name === 'minecraft-vanilla');
    const { template } = convertTemplate(JSON.parse(sample?.text ?? '{}'));
    expect(template.name).toBe('vanilla-minecraft');
  });

  it('rewrites ${rootdir} and quotes arguments holding spaces', () => {
    const raw = {
      pufferd: {
        display: 'Ünïcode Game!',
        run: { program: '${rootdir}/srv', arguments: ['--motd', 'hello world'], stop: 'quit' },
        environment: { type: 'standard' },
      },
    };
    const { template } = loadTemplate(raw);
    expect(template.name).toBe('unicode-game');
    expect(template.run.command).toBe('${rootDir}/srv --motd "hello world"');
  });

  it('detects a lone ${rootdir} or install.commands as 1.x', () => {
    expect(detectFormat({ run: { command: 'cd ${rootdir}' } })).toBe('v1');
    expect(detectFormat({ install: { commands: [] } })).toBe('v1');
    expect(detectFormat({ run: { command: 'x' } })).toBe('v2');
  });
});

describe('v2.6 and v3 normalisation', () => {
  it('keeps unknown processors and names them in a warning', () => {
    const { template, warnings } = load('v2.6', 'minecraft-vanilla');
    expect(template.install[0]).toEqual({ type: 'javadl', version: '${javaversion}' });
    const unknown = warnings.find((w) => w.code === 'unknownProcessor');
    expect(unknown?.names).toEqual(['javadl']);
    expect(unknown?.message).toContain('javadl');
  });

  it('turns a string files field into a list and keeps stopCode as the signal', () => {
    const { template } = load('v2.6', 'teamspeak3');
    expect(template.install[0]).toMatchObject({
      type: 'download',
      files: [expect.stringContaining('teamspeak')],
    });
    expect(stopSettingOf(template.run)).toEqual({ type: 'signal', value: 2 });
    expect(template.supportedEnvironments).toEqual([{ type: 'tty' }]);
  });

  it('maps the v3 host environment to tty and picks the unconditional command', () => {
    const raw = {
      type: 'x',
      run: { command: [{ command: 'a', if: 'env == "docker"' }, { command: 'b' }] },
      environment: { type: 'host' },
      supportedEnvironments: [{ type: 'host' }, { type: 'docker', image: 'node' }, { type: 'tty' }],
      install: [{ commands: 'echo hi' }],
    };
    const { template, format, warnings } = loadTemplate(raw, { name: 'V3-Thing' });
    expect(format).toBe('v3');
    expect(template.name).toBe('v3-thing');
    expect(template.run.command).toBe('b');
    expect(template.environment).toEqual({ type: 'tty' });
    expect(template.supportedEnvironments.map((e) => e.type)).toEqual(['tty', 'docker']);
    expect(template.install[0]).toEqual({ type: 'command', commands: ['echo hi'] });
    expect(warnings.map((w) => w.code)).toEqual(['conditionalCommands', 'duplicateEnvironment']);
  });
});

describe('validation errors', () => {
  function errorOf(fn: () => unknown): AppError {
    try {
      fn();
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    throw new Error('expected an AppError');
  }

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(errorOf(() => parseTemplateText('{nope')).code).toBe('ErrInvalidJson');
    expect(errorOf(() => loadTemplate([1, 2])).code).toBe('ErrInvalidJson');
  });

  it('names the field of a processor missing a required value', () => {
    const err = errorOf(() => loadTemplate({ run: {}, install: [{ type: 'mojangdl', version: 'latest' }] }));
    expect(err.status).toBe(400);
    expect(err.metadata?.field).toBe('install[0].target');
  });

  it('names an invalid variable type with its options', () => {
    const err = errorOf(() => loadTemplate({ run: {}, data: { port: { type: 'number' } } }));
    expect(err.code).toBe('ErrFieldInvalidOption');
    expect(err.metadata?.field).toBe('data.port.type');
  });
});
