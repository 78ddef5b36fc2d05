/**
 * What a panel backup holds besides the database, as [name in the archive, path on disk]: the panel's keys
 * (token signing, secrets at rest), the local node's backup repository key and destination (without them its
 * restic snapshots cannot be read: docs/backups.md § Recovery), and the config file.
 */
import { join } from 'node:path';

export interface PanelFile {
  /** Its name inside the archive. */
  name: string;
  /** Where it lives on this machine. */
  path: string;
  /** Restored into place (false: put beside, for the operator to compare). */
  swap: boolean;
}

export function panelFiles(dataDir: string, configFile: string): PanelFile[] {
  return [
    { name: 'keys', path: join(dataDir, 'keys'), swap: true },
    { name: 'node/repository.key', path: join(dataDir, 'backups', 'repository.key'), swap: true },
    { name: 'node/destination.json', path: join(dataDir, 'backups', 'destination.json'), swap: true },
    // The archived config names the old machine's paths and ports: restored beside, never over the config
    // this restore was started with.
    { name: 'config.json', path: configFile, swap: false },
  ];
}

export const DATABASE_ENTRY = 'database/hearth.db';
/** Where a restore puts the archived config file. */
export const restoredConfigPath = (dataDir: string) => join(dataDir, 'restored-config.json');
