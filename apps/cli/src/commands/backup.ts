import type { Command } from 'commander';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { configFlag } from '../options';
import { FORMAT, MANIFEST, writeArchive, type Manifest } from '../backup/archive';
import { DATABASE_ENTRY, panelFiles } from '../backup/panel-files';

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

const DUMP_HINT: Record<string, string> = {
  postgres: 'pg_dump --format=custom',
  mysql: 'mariadb-dump --single-transaction',
};

/** `hearth backup`: the panel's own data into one archive (docs/backups.md § The panel's own data). */
export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description("back up the panel's own data (SQLite database, keys, config) into one .tar.gz file")
    .argument('[file]', 'archive to write (default: ./hearth-backup-<time>.tar.gz)')
    .action(async (file: string | undefined, _opts: unknown, command: Command) => {
      const { configPath, loadConfig, dialectOf, sqlitePath, copySqliteOnline } =
        await import('@hearth/panel');
      const configFile = configPath(configFlag(command));
      const config = loadConfig({ path: configFile });
      const dataDir = resolve(config.panel.dataDir);
      const out = resolve(file ?? `hearth-backup-${stamp()}.tar.gz`);
      if (existsSync(out)) throw new Error(`${out} exists: choose another file`);
      const dialect = dialectOf(config.panel.databaseUrl);
      const stage = mkdtempSync(join(dirname(out), '.hearth-backup-'));
      try {
        const files: string[] = [];
        if (dialect === 'sqlite') {
          mkdirSync(join(stage, dirname(DATABASE_ENTRY)));
          await copySqliteOnline(sqlitePath(config.panel.databaseUrl), join(stage, DATABASE_ENTRY));
          files.push(DATABASE_ENTRY);
        }
        for (const entry of panelFiles(dataDir, configFile)) {
          if (!existsSync(entry.path)) continue;
          cpSync(entry.path, join(stage, entry.name), { recursive: true, preserveTimestamps: true });
          files.push(entry.name);
        }
        const manifest: Manifest = {
          format: FORMAT,
          version: 1,
          createdAt: new Date().toISOString(),
          database: dialect,
          files,
        };
        writeFileSync(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
        writeArchive(stage, out);
      } finally {
        rmSync(stage, { recursive: true, force: true });
      }
      console.log(`wrote ${out}`);
      if (dialect !== 'sqlite')
        console.log(
          `The ${dialect === 'postgres' ? 'PostgreSQL' : 'MariaDB/MySQL'} database is not in this archive (keys and ` +
            `config are): dump it with its own tool, e.g. ${DUMP_HINT[dialect]} (docs/backups.md § The panel's own data).`,
        );
    });
}
