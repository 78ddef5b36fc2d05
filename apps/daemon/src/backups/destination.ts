/**
 * The node's backup destination (docs/backups.md § Destinations), set by an administrator and stored on the node
 * in `<backupsDir>/destination.json` (0600, secrets included: they never leave the node again). What restic needs
 * to reach it is derived here: the repository location (written to a 0600 file restic reads with
 * `--repository-file`, since a REST URL carries its credentials), the environment (S3 keys) and, for SFTP, an
 * OpenSSH command with the pinned host key and the key file.
 */
import { join } from 'node:path';
import {
  backupDestinationInputSchema,
  type BackupDestinationInput,
  type BackupDestinationView,
} from '@hearth/contract';
import { readIfExists, writePrivate } from './atomic-file';

export type Destination = BackupDestinationInput;

const SECRET_KEYS = ['privateKey', 'secretAccessKey', 'password'] as const;

export function destinationFile(backupsDir: string): string {
  return join(backupsDir, 'destination.json');
}

/** The stored destination, or the embedded default: `<backupsDir>/repository` on the node itself. */
export async function loadDestination(backupsDir: string): Promise<Destination> {
  const text = await readIfExists(destinationFile(backupsDir));
  if (text === null) return { type: 'local', path: '' };
  return backupDestinationInputSchema.parse(JSON.parse(text));
}

/** An update without a secret keeps the stored one (secrets are write-only). */
export function mergeSecrets(next: Destination, previous: Destination): Destination {
  if (next.type !== previous.type) return next;
  const merged: Record<string, unknown> = { ...next };
  const old = previous as Record<string, unknown>;
  for (const key of SECRET_KEYS)
    if (merged[key] === undefined && old[key] !== undefined) merged[key] = old[key];
  return merged as Destination;
}

export async function saveDestination(backupsDir: string, destination: Destination): Promise<void> {
  await writePrivate(destinationFile(backupsDir), `${JSON.stringify(destination, null, 2)}\n`);
}

/** The destination as answered: secrets left out, their names listed when stored. */
export function viewOf(destination: Destination): BackupDestinationView {
  const settings: Record<string, string | number> = {};
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(destination)) {
    if (key === 'type' || value === undefined) continue;
    if ((SECRET_KEYS as readonly string[]).includes(key)) secrets.push(key);
    else if (typeof value === 'string' || typeof value === 'number') settings[key] = value;
  }
  return { type: destination.type, settings, secrets };
}

/** A short stable name of where the repository is (for logs and the per-destination state). */
export function describe(destination: Destination, backupsDir: string): string {
  switch (destination.type) {
    case 'local':
      return destination.path || join(backupsDir, 'repository');
    case 'sftp':
      return `sftp:${destination.user}@${destination.host}:${destination.port}${destination.path}`;
    case 's3':
      return `s3:${destination.endpoint}/${destination.bucket}/${destination.prefix}`;
    case 'rest':
      return `rest:${new URL(destination.url).host}${new URL(destination.url).pathname}`;
  }
}
