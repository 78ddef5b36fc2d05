import type { FastifyBaseLogger } from 'fastify';
import type { SettingsService } from '../settings/settings.service';
import { ACTIVITY_RETENTION_DAYS } from '../settings/settings.service';
import type { ActivityService } from './activity.service';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The retention sweep (docs/activity.md § Retention): once at start and then hourly, the entries older than
 * `panel.activity.retentionDays` are deleted. Returns the stop function (the app's onClose calls it).
 */
export function startRetention(
  activity: ActivityService,
  settings: SettingsService,
  log: () => FastifyBaseLogger,
): () => void {
  const sweep = async () => {
    try {
      const days = Number(await settings.read('panel.activity.retentionDays')) || ACTIVITY_RETENTION_DAYS;
      const removed = await activity.prune(days);
      if (removed > 0) log().info({ removed, days }, 'activity entries past retention deleted');
    } catch (err) {
      log().warn({ err }, 'activity retention sweep failed; next one in an hour');
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
