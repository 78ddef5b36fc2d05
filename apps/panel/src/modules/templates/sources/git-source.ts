import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { slugify } from '@hearth/contract/template-convert/json';
import { scanFolder } from './folder-scan';
import { checkRepository, runGit } from './git';
import type { FolderScan, TemplateSource } from './types';

export interface GitRepository {
  name: string;
  url: string;
  branch: string;
}

export interface GitSourceOptions {
  /** `<dataDir>/template-repos`: one checkout per repository. */
  cacheDir: string;
  /** A repository is fetched at most this often (PufferPanel: five minutes). */
  refreshMs: number;
  now?: () => number;
}

/**
 * A git repository in PufferPanel layout, cloned shallowly into the data dir and refreshed on use at most
 * every `refreshMs`. A failed clone or fetch is reported with the scan (the last good checkout is still
 * offered); it never throws, so one broken repository cannot take the template list down.
 */
export class GitSource implements TemplateSource {
  readonly id: string;
  readonly dir: string;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private lastError: string | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(
    readonly repo: GitRepository,
    private readonly options: GitSourceOptions,
  ) {
    this.id = `git:${repo.name}`;
    const hash = createHash('sha256').update(`${repo.url}#${repo.branch}`).digest('hex').slice(0, 10);
    this.dir = join(options.cacheDir, `${slugify(repo.name) || 'repo'}-${hash}`);
  }

  async scan(): Promise<FolderScan & { error?: string }> {
    await this.refresh();
    if (!existsSync(this.dir)) return { files: [], problems: [], error: this.lastError ?? 'not cloned yet' };
    const scan = await scanFolder(this.dir);
    return this.lastError === undefined ? scan : { ...scan, error: this.lastError };
  }

  /** Clones or fetches unless that happened less than `refreshMs` ago; concurrent callers share one run. */
  refresh(force = false): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    if (!force && now - this.lastAttempt < this.options.refreshMs) return this.inFlight ?? Promise.resolve();
    this.lastAttempt = now;
    this.inFlight ??= this.update().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async update(): Promise<void> {
    const invalid = checkRepository(this.repo.url, this.repo.branch);
    try {
      if (invalid) throw new Error(invalid);
      if (existsSync(join(this.dir, '.git'))) await this.pull();
      else await this.clone();
      this.lastError = undefined;
    } catch (err) {
      this.lastError = `repository ${this.repo.name} (${this.repo.url}, branch ${this.repo.branch}): ${(err as Error).message}`;
    }
  }

  /** Clones beside the final folder and renames, so a failed clone never leaves a half checkout behind. */
  private async clone(): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    const tmp = `${this.dir}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      const { url, branch } = this.repo;
      await runGit([
        'clone',
        '--quiet',
        '--depth',
        '1',
        '--single-branch',
        '--branch',
        branch,
        '--',
        url,
        tmp,
      ]);
      await rm(this.dir, { recursive: true, force: true });
      await rename(tmp, this.dir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  private async pull(): Promise<void> {
    const { url, branch } = this.repo;
    await runGit(['fetch', '--quiet', '--depth', '1', '--', url, branch], this.dir);
    await runGit(['reset', '--quiet', '--hard', 'FETCH_HEAD'], this.dir);
    await runGit(['clean', '--quiet', '-fdx'], this.dir);
  }
}
