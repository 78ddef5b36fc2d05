/**
 * The node's one restic repository (docs/adr/0005-backups-restic.md): every server's snapshots in it, tagged
 * `hearth-server:<id>`, so identical game files are stored once across servers. Its password is 32 random bytes
 * generated on first use into `<backupsDir>/repository.key` (0600, never sent to the panel); keep a copy of it
 * with the node's other secrets — without it the repository cannot be read (docs/backups.md § Recovery).
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isAppError } from '@hearth/contract';
import { readIfExists, writePrivate } from './atomic-file';
import { describe, loadDestination, type Destination } from './destination';
import { RepositoryGate, type GateKind } from './gate';
import { runRestic, type ResticTarget, type RunOptions, resticJson } from './restic';
import { buildTarget } from './target';

export class Repository {
  readonly gate = new RepositoryGate();
  private target: Promise<ResticTarget> | null = null;
  private destination: Destination | null = null;

  constructor(
    readonly backupsDir: string,
    private readonly resticPath: string,
  ) {}

  get passwordFile(): string {
    return join(this.backupsDir, 'repository.key');
  }

  /** The password file, created once with a random password. */
  async ensurePassword(): Promise<void> {
    if ((await readIfExists(this.passwordFile)) !== null) return;
    await writePrivate(this.passwordFile, randomBytes(32).toString('base64url'));
  }

  async currentDestination(): Promise<Destination> {
    this.destination ??= await loadDestination(this.backupsDir);
    return this.destination;
  }

  /** Where the repository is, for logs and the node status. */
  async location(): Promise<string> {
    return describe(await this.currentDestination(), this.backupsDir);
  }

  /** Builds the target of a destination and makes sure a repository is there (created when there is none). */
  async open(destination: Destination): Promise<ResticTarget> {
    await mkdir(join(this.backupsDir, 'tmp'), { recursive: true, mode: 0o700 });
    await mkdir(join(this.backupsDir, 'cache'), { recursive: true, mode: 0o700 });
    await this.ensurePassword();
    const target = await buildTarget(destination, {
      backupsDir: this.backupsDir,
      passwordFile: this.passwordFile,
      resticPath: this.resticPath,
    });
    if (destination.type === 'local') await mkdir(join(this.backupsDir, 'repository'), { recursive: true });
    try {
      await runRestic(target, ['cat', 'config', '--no-lock']);
    } catch (err) {
      if (
        !isAppError(err) ||
        err.code !== 'ErrBackupDestinationUnreachable' ||
        !/repository|config/i.test(err.message)
      )
        throw err;
      await runRestic(target, ['init']);
      return target;
    }
    // Locks left by a daemon killed mid-operation: restic removes only those whose process is gone (or that are
    // old), never a live one's. Done before this daemon runs anything there (docs/backups.md § Faults).
    await runRestic(target, ['unlock']);
    return target;
  }

  /** The ready target (opened once; a failed open is tried again next time). */
  private ready(): Promise<ResticTarget> {
    this.target ??= this.currentDestination().then((d) => this.open(d));
    this.target.catch(() => {
      this.target = null;
    });
    return this.target;
  }

  /** A new destination takes effect only once a repository there is opened (or created). */
  async switchTo(destination: Destination, save: () => Promise<void>): Promise<void> {
    await this.gate.with('exclusive', async () => {
      const target = await this.open(destination);
      await save();
      this.destination = destination;
      this.target = Promise.resolve(target);
    });
  }

  /** Runs restic once the gate lets this kind of use through. */
  async run(kind: GateKind, args: readonly string[], options: RunOptions = {}): Promise<string[]> {
    return this.gate.with(kind, async () => runRestic(await this.ready(), args, options));
  }

  async json(kind: GateKind, args: readonly string[]): Promise<unknown> {
    return this.gate.with(kind, async () => resticJson(await this.ready(), args));
  }

  /** The target for a streamed run; the caller holds the gate for the stream's life. */
  async streamTarget(): Promise<ResticTarget> {
    return this.ready();
  }
}
