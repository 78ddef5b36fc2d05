/**
 * The node's side of backups, for administrators (docs/backups.md § Destinations, § Verification): the
 * destination (secrets never answered), the repository's upkeep and its results, and restic's version.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BackupCheckResult, BackupDestinationInput, BackupNodeStatus } from '@hearth/contract';
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
  ) {}

  async status(): Promise<BackupNodeStatus> {
    const [restic, destination, state] = await Promise.all([
      resticVersion(this.resticPath),
      this.repo.currentDestination(),
      this.maintenance.state(),
    ]);
    return { restic, destination: viewOf(destination), ...state, ...this.maintenance.next() };
  }

  /** Takes effect only when a repository there opens (or is created): an unreachable one is refused. */
  async setDestination(input: BackupDestinationInput): Promise<void> {
    const destination = mergeSecrets(input, await this.repo.currentDestination());
    await this.repo.switchTo(destination, () => saveDestination(this.repo.backupsDir, destination));
  }

  check(): Promise<BackupCheckResult> {
    return this.maintenance.check();
  }
}
