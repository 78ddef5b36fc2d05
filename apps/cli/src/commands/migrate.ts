import type { Command } from 'commander';
import { panelConfigOf } from '../options';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (safe to run twice; never destructive)')
    .action(async (_opts: unknown, command: Command) => {
      const config = await panelConfigOf(command);
      const { connectDatabase, migrateToLatest } = await import('@hearth/panel');
      const db = connectDatabase(config.panel.databaseUrl);
      try {
        const applied = await migrateToLatest(db.kysely);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await db.close();
      }
    });
}
