/**
 * Each server's backup schedule (its policy's `schedule`; docs/backups.md § Schedules): croner in the tasks'
 * time zone, woken by the daemon's scheduler clock like tasks. A due backup while another operation of the server
 * runs is skipped with a console line (never queued).
 */
import type { CronJob } from '../scheduler/cron-job';
import { scheduleJob, type TaskSettings } from '../scheduler/cron';

export class BackupSchedules {
  private readonly jobs = new Map<string, CronJob>();

  constructor(
    private readonly time: TaskSettings,
    private readonly fire: (serverId: string) => void,
  ) {}

  set(serverId: string, schedule: string | null): void {
    this.jobs.get(serverId)?.stop();
    this.jobs.delete(serverId);
    if (schedule)
      this.jobs.set(
        serverId,
        scheduleJob(schedule, this.time, () => this.fire(serverId)),
      );
  }

  next(serverId: string): number | null {
    return this.jobs.get(serverId)?.nextRun()?.getTime() ?? null;
  }

  stop(): void {
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
  }
}
