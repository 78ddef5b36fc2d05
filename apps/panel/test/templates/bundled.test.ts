import { describe, expect, it } from 'vitest';
import { checkVariableValue, templateSchema } from '@hearth/contract';
import { scanFolder } from '../../src/modules/templates/sources/folder-scan';
import { bundledTemplatesDir } from '../../src/modules/templates/sources/folder-source';
import { readTemplate } from '../../src/modules/templates/sources/read-template';
import { serializeTemplate } from '../../src/modules/templates/template-io';

const expected = [
  'discord-bot-node',
  'freeciv-server',
  'generic-docker',
  'generic-process',
  'minecraft-fabric',
  'minecraft-forge',
  'minecraft-paper',
  'minecraft-vanilla',
  'minetest-server',
];

describe('bundled starter templates', async () => {
  const scan = await scanFolder(bundledTemplatesDir);

  it('holds the whole starter set, one folder per template, without problems', () => {
    expect(scan.problems).toEqual([]);
    expect(scan.files.map((f) => f.name)).toEqual(expected);
    for (const file of scan.files) expect(file.path).toBe(`${file.name}/${file.name}.json`);
  });

  it.each(expected)('%s passes the schema strictly, with a readme and no warnings', (name) => {
    const file = scan.files.find((f) => f.name === name);
    if (!file) throw new Error(`missing ${name}`);
    const raw: unknown = JSON.parse(file.text);
    expect(templateSchema.safeParse(raw).success).toBe(true);
    const result = readTemplate('bundled', file);
    if (!result.ok) throw new Error(result.problem.reason);
    const { template, warnings } = result.value;
    expect(warnings).toEqual([]);
    expect(template.name).toBe(name);
    expect(template.readme).toMatch(/^# /);
    expect(template.display).not.toBe('');
    expect(template.supportedEnvironments.length).toBeGreaterThan(0);
    expect(template.supportedEnvironments.map((e) => e.type)).toContain(template.environment.type);
    expect(serializeTemplate(template)).toBe(serializeTemplate(templateSchema.parse(template)));
  });

  it('uses the processors the issue asks for', () => {
    const steps = (name: string) => {
      const file = scan.files.find((f) => f.name === name);
      const result = file ? readTemplate('bundled', file) : undefined;
      return result?.ok ? result.value.template.install.map((s) => s.type) : [];
    };
    expect(steps('minecraft-vanilla')).toContain('mojangdl');
    expect(steps('minecraft-fabric')).toContain('fabricdl');
    expect(steps('minecraft-forge')).toContain('forgedl');
    expect(steps('minecraft-paper')).toContain('download');
  });

  it('holds its variables to their rules: ports 1–65535, shipped values valid, raw commands admin-only', () => {
    for (const file of scan.files) {
      const template = templateSchema.parse(JSON.parse(file.text));
      for (const [name, variable] of Object.entries(template.data)) {
        expect(checkVariableValue(variable, variable.value).ok, `${file.name}.${name}`).toBe(true);
        if (name === 'port') expect(variable, file.name).toMatchObject({ min: 1, max: 65535 });
      }
      // A whole-argument variable of the run command is a command line: only an admin may set it.
      const whole = /^\$\{(\w+)\}$/.exec(template.run.command)?.[1];
      if (whole) expect(template.data[whole]?.userEdit, file.name).toBe(false);
    }
    const generic = scan.files.filter((f) => f.name.startsWith('generic-'));
    expect(generic.map((f) => f.name)).toEqual(['generic-docker', 'generic-process']);
  });
});
