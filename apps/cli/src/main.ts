#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { isAppError } from '@hearth/contract';
import { registerConfigCommand } from './commands/config';
import { registerMigrateCommand } from './commands/migrate';
import { registerStartCommand } from './commands/start';
import { registerUserCommand } from './commands/user';
import { registerDaemonCommand } from './commands/daemon';
import { registerBackupCommand } from './commands/backup';
import { registerRestoreCommand } from './commands/restore';

/** One readable line, never a stack trace: config errors, catalogued errors and the rest alike. */
function describe(err: unknown): string {
  if (isAppError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function buildProgram(): Command {
  const program = new Command('hearth')
    .description('Hearth: a self-hosted panel for game and application servers')
    .option('-c, --config <file>', 'configuration file (default: $HEARTH_CONFIG or ./data/config.json)')
    .showHelpAfterError();
  registerStartCommand(program);
  registerMigrateCommand(program);
  registerUserCommand(program);
  registerConfigCommand(program);
  registerDaemonCommand(program);
  registerBackupCommand(program);
  registerRestoreCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (!(err instanceof CommanderError)) console.error(`hearth: ${describe(err)}`);
  process.exitCode = err instanceof CommanderError ? err.exitCode : 1;
}
