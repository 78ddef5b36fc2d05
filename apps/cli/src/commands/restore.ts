import type { Command } from 'commander';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configFlag } from '../options';
import { FORMAT, MANIFEST, readArchive, type Manifest } from '../backup/archive';
import { DATABASE_ENTRY, panelFiles, restoredConfigPath } from '../backup/panel-files';
import { runningPanelPid } from '../backup/panel-pid';
import { stageDatabase, swapIn, type Swap } from '../backup/swap-in';

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

function readManifest(stage: string): Manifest {
  const path = join(stage, MANIFEST);
  if (!existsSync(path)) throw new Error('not a Hearth panel backup (no manifest.json)');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
  if (manifest.format !== FORMAT || manifest.version !== 1 || !Array.isArray(manifest.files))
    throw new Error('not a Hearth panel backup this version can read (manifest.json)');
  return manifest as Manifest;
}

/** `hearth restore FILE`: a `hearth backup` archive back into the data folder the config names. */
export function registerRestoreCommand(program: Command): void {
  program
    .command('restore')
    .description(
      'restore a `hearth backup` archive (the panel must be stopped); the replaced files are kept aside',
    )
    .argument('<file>', 'archive written by hearth backup')
    .action(async (file: string, _opts: unknown, command: Command) => {
      const { configPath, loadConfig, dialectOf, sqlitePath } = await import('@hearth/panel');
      const configFile = configPath(configFlag(command));
      const config = loadConfig({ path: configFile });
      const dataDir = resolve(config.panel.dataDir);
      const pid = runningPanelPid(dataDir);
      if (pid !== null)
        throw new Error(
          `a panel is running on ${dataDir} (pid ${pid}, hearth.pid): stop it before restoring`,
        );
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const stage = mkdtempSync(join(dataDir, '.restore-'));
      try {
        readArchive(resolve(file), stage);
        const manifest = readManifest(stage);
        const dialect = dialectOf(config.panel.databaseUrl);
        const swaps: Swap[] = [];
        let databaseTarget: string | null = null;
        if (manifest.files.includes(DATABASE_ENTRY)) {
          if (dialect !== 'sqlite')
            throw new Error(`the archive holds a SQLite database but this panel's database is ${dialect}`);
          databaseTarget = resolve(sqlitePath(config.panel.databaseUrl));
          swaps.push(stageDatabase(join(stage, DATABASE_ENTRY), databaseTarget));
        }
        for (const entry of panelFiles(dataDir, configFile)) {
          if (!manifest.files.includes(entry.name)) continue;
          if (entry.swap) swaps.push({ from: join(stage, entry.name), to: entry.path });
          else copyFileSync(join(stage, entry.name), restoredConfigPath(dataDir));
        }
        const previous = join(dataDir, `previous-${stamp()}`);
        swapIn(swaps, previous, databaseTarget);
        console.log(`restored ${manifest.files.join(', ')} from a backup of ${manifest.createdAt}`);
        console.log(`the replaced files are in ${previous}`);
        if (manifest.files.includes('config.json'))
          console.log(
            `the archived config file is ${restoredConfigPath(dataDir)} (compare it with ${configFile})`,
          );
        if (manifest.database !== 'sqlite')
          console.log(
            `restore the ${manifest.database} database from its own dump (docs/backups.md § The panel's own data)`,
          );
      } finally {
        rmSync(stage, { recursive: true, force: true });
      }
    });
}
