import type { Command } from 'commander';
import { configFlag } from '../options';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('read or change the configuration file');

  config
    .command('get <key>')
    .description('print the effective value of a key (file + HEARTH_* environment), e.g. web.port')
    .action(async (key: string, _opts: unknown, command: Command) => {
      const { getConfigValue, loadConfig } = await import('@hearth/panel');
      const value = getConfigValue(loadConfig({ path: configFlag(command) }), key);
      console.log(typeof value === 'string' ? value : JSON.stringify(value));
    });

  config
    .command('set <key> <value>')
    .description('set a key in the configuration file (validated, written atomically)')
    .action(async (key: string, value: string, _opts: unknown, command: Command) => {
      const { configPath, setConfigValue } = await import('@hearth/panel');
      const path = configPath(configFlag(command));
      setConfigValue(path, key, value);
      console.log(`${key} saved in ${path}`);
    });
}
