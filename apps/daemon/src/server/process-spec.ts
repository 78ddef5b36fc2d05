/** Turns a definition's command text into a {@link ProcessSpec}: substitute, split (no shell), place in the root. */
import type { Template } from '@hearth/contract';
import { AppError } from '@hearth/contract';
import type { ProcessSpec } from '../environment/environment';
import type { Sandbox } from '../filesystem/sandbox';
import { splitCommandLine } from './command-line';
import { substitute, substituteDeep, type Substitutions } from './variables';

export async function workingDirectoryOf(
  definition: Template,
  sandbox: Sandbox,
  values: Substitutions,
): Promise<string> {
  // `${rootDir}` counts as empty here (PufferPanel v2): the directory is always relative to the root.
  const wd = substitute(definition.run.workingDirectory, { ...values, rootDir: '' }).replace(/^\/+/, '');
  const full = await sandbox.resolve(wd);
  if (wd) await sandbox.mkdirp(wd);
  return full;
}

export async function buildProcessSpec(
  line: string,
  definition: Template,
  sandbox: Sandbox,
  values: Substitutions,
): Promise<ProcessSpec> {
  const argv = splitCommandLine(substitute(line, values));
  const [command, ...args] = argv;
  if (!command) throw new AppError('ErrCommandSyntax', { reason: 'the command is empty' });
  return {
    command,
    args,
    cwd: await workingDirectoryOf(definition, sandbox, values),
    env: { HOME: sandbox.root, ...substituteDeep(definition.run.environmentVars, values) },
  };
}
