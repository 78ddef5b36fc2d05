/**
 * The repository's upkeep (docs/backups.md § Verification and pruning): at start, stale locks left by a killed
 * daemon are removed (`restic unlock` removes only locks restic knows to be stale: their process is gone or
 * they are old); on their own schedules, `prune` frees the data of forgotten snapshots and `check
 * --read-data-subset` reads part of the data back. Each result is kept for the Node page
 * (`<backupsDir>/maintenance.json`); a failed check is also logged as an error.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { isAppError, type BackupCheckResult } from '@hearth/contract';
import type { CronJob } from '../scheduler/cron-job';
import { scheduleJob, type TaskSettings } from '../scheduler/cron';
import { readIfExists, writePrivate } from './atomic-file';
import type { Repository } from './repository';

export interface MaintenanceState {
  lastCheck: BackupCheckResult | null;
  lastPrune: BackupCheckResult | null;
}

export interface MaintenanceSettings {
  checkSchedule: string;
  checkSubset: string;
  pruneSchedule: string;
}

function messageOf(err: unknown): string {
  return (isAppError(err) ? err.message : err instanceof Error ? err.message : String(err)).slice(0, 1000);
}

export class Maintenance {
  private readonly jobs: CronJob[] = [];
  private checkJob: CronJob | null = null;
  private pruneJob: CronJob | null = null;

  constructor(
    private readonly repo: Repository,
    private readonly settings: MaintenanceSettings,
    /** The tasks' time zone and clock: the same schedules, the same time (scheduler/cron.ts). */
    private readonly time: TaskSettings,
    private readonly log: Logger,
  ) {}

  private get file(): string {
    return join(this.repo.backupsDir, 'maintenance.json');
  }

  async state(): Promise<MaintenanceState> {
    const text = await readIfExists(this.file);
    const parsed = text ? (JSON.parse(text) as Partial<MaintenanceState>) : {};
    return { lastCheck: parsed.lastCheck ?? null, lastPrune: parsed.lastPrune ?? null };
  }

  private async record(key: keyof MaintenanceState, result: BackupCheckResult): Promise<void> {
    const state = await this.state();
    state[key] = result;
    await writePrivate(this.file, JSON.stringify(state));
  }

  /** `restic check` with a subset of the data read back; the result is recorded (and returned). */
  async check(): Promise<BackupCheckResult> {
    const at = this.time.clock.now();
    let result: BackupCheckResult;
    try {
      await this.repo.run('exclusive', ['check', `--read-data-subset=${this.settings.checkSubset}`]);
      result = { at, ok: true };
    } catch (err) {
      result = { at, ok: false, error: messageOf(err) };
      this.log.error(
        { repository: await this.repo.location(), error: result.error },
        'backup repository check failed',
      );
    }
    await this.record('lastCheck', result);
    return result;
  }

  async prune(): Promise<BackupCheckResult> {
    const at = this.time.clock.now();
    let result: BackupCheckResult;
    try {
      await this.repo.run('prune', ['prune']);
      result = { at, ok: true };
    } catch (err) {
      result = { at, ok: false, error: messageOf(err) };
      this.log.error({ error: result.error }, 'backup repository prune failed');
    }
    await this.record('lastPrune', result);
    return result;
  }

  private schedule(pattern: string, run: () => Promise<unknown>): CronJob | null {
    if (pattern.trim() === '') return null;
    const job = scheduleJob(pattern, this.time, () => void run());
    this.jobs.push(job);
    return job;
  }

  start(): void {
    this.checkJob = this.schedule(this.settings.checkSchedule, () => this.check());
    this.pruneJob = this.schedule(this.settings.pruneSchedule, () => this.prune());
  }

  next(): { nextCheck: number | null; nextPrune: number | null } {
    return {
      nextCheck: this.checkJob?.nextRun()?.getTime() ?? null,
      nextPrune: this.pruneJob?.nextRun()?.getTime() ?? null,
    };
  }

  stop(): void {
    for (const job of this.jobs.splice(0)) job.stop();
  }
}
