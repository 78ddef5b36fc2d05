/**
 * The node's side of backups, for administrators (docs/backups.md § Destinations, § Verification): the
 * destination (secrets never answered), the repository's upkeep and its results, and restic's version.
 */
import { execFile } from 'node:child_process';
import { isAbsolute, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import {
  AppError,
  type BackupCheckResult,
  type BackupDestinationInput,
  type BackupNodeStatus,
} from '@hearth/contract';
import { mergeSecrets, saveDestination, viewOf } from './destination';
import type { Maintenance } from './maintenance';
import type { Repository } from './repository';

const run = promisify(execFile);

async function resticVersion(bin: string): Promise<string | null> {
  try {
    const { stdout } = await run(bin, ['version'], {
      timeout: 10_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    return /restic\s+([\w.+-]+)/.exec(stdout)?.[1] ?? stdout.trim();
  } catch {
    return null;
  }
}

export class NodeBackups {
  constructor(
    private readonly repo: Repository,
    private readonly maintenance: Maintenance,
    private readonly resticPath: string,
    /** The servers' folders (absolute): no local repository inside them. */
    private readonly serversDir: string,
  ) {}

  async status(): Promise<BackupNodeStatus> {
    const [restic, destination, state] = await Promise.all([
      resticVersion(this.resticPath),
      this.repo.currentDestination(),
      this.maintenance.state(),
    ]);
    return { restic, destination: viewOf(destination), ...state, ...this.maintenance.next() };
  }

  /**
   * Takes effect only when a repository there opens (or is created): an unreachable one is refused. A local
   * folder must be absolute and outside the servers' folders (a game must not reach the repository).
   */
  async setDestination(input: BackupDestinationInput): Promise<void> {
    if (input.type === 'local' && input.path !== '') {
      const path = resolve(input.path);
      const within = (dir: string) => path === dir || path.startsWith(`${dir}${sep}`);
      if (!isAbsolute(input.path) || within(this.serversDir))
        throw new AppError('ErrFieldInvalid', { field: 'path' });
    }
    const destination = mergeSecrets(input, await this.repo.currentDestination());
    await this.repo.switchTo(destination, () => saveDestination(this.repo.backupsDir, destination));
  }

  check(): Promise<BackupCheckResult> {
    return this.maintenance.check();
  }
}
