/**
 * Turns a definition's command text into a {@link ProcessSpec}: split (no shell), substitute per argument
 * (./command-argv), place in the root. The run command, install/pre/post `command` steps and task `command`
 * operations all come here (the server's runCommand), and so do the docker environment's entrypoint and args.
 */
import type { Template } from '@hearth/contract';
import { AppError } from '@hearth/contract';
import type { ProcessSpec } from '../environment/environment';
import type { Sandbox } from '../filesystem/sandbox';
import { commandArgv } from './command-argv';
import { adminOnlyNames, substitute, substituteDeep, type Substitutions } from './variables';

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

/** The argv a definition's command line runs as (checked at save, at start and when it runs). */
export function argvOf(line: string, definition: Pick<Template, 'data'>, values: Substitutions): string[] {
  return commandArgv(line, values, adminOnlyNames(definition));
}

export async function buildProcessSpec(
  line: string,
  definition: Template,
  sandbox: Sandbox,
  values: Substitutions,
): Promise<ProcessSpec> {
  const argv = argvOf(line, definition, values);
  const [command, ...args] = argv;
  if (!command) throw new AppError('ErrCommandSyntax', { reason: 'the command is empty' });
  return {
    command,
    args,
    cwd: await workingDirectoryOf(definition, sandbox, values),
    env: { HOME: sandbox.root, ...substituteDeep(definition.run.environmentVars, values) },
  };
}
