/**
 * Retention after each backup (docs/backups.md § Retention): restic computes what the policy keeps
 * (`forget --dry-run`, the server's snapshots as one group), locked snapshots are taken out of the rest, and
 * only those are forgotten by id. Freeing their data is `prune`'s job, on its own schedule (maintenance.ts).
 */
import type { BackupRetention } from '@hearth/contract';
import type { Repository } from './repository';
import { serverTag } from './snapshots';

interface ForgetGroup {
  remove?: Array<{ id?: string }> | null;
}

export function retentionArgs(retention: BackupRetention): string[] {
  const args: string[] = [];
  if (retention.keepLast > 0) args.push('--keep-last', String(retention.keepLast));
  if (retention.keepDaily > 0) args.push('--keep-daily', String(retention.keepDaily));
  if (retention.keepWeekly > 0) args.push('--keep-weekly', String(retention.keepWeekly));
  if (retention.keepMonthly > 0) args.push('--keep-monthly', String(retention.keepMonthly));
  return args;
}

/** Forgets what the policy no longer keeps, locked snapshots excepted; returns the forgotten ids. */
export async function applyRetention(
  repo: Repository,
  serverId: string,
  retention: BackupRetention,
  locked: readonly string[],
): Promise<string[]> {
  const keep = retentionArgs(retention);
  if (keep.length === 0) return [];
  const plan = await repo.json('read', [
    'forget',
    '--json',
    '--dry-run',
    '--no-lock',
    '--group-by',
    '',
    '--tag',
    serverTag(serverId),
    ...keep,
  ]);
  const groups = Array.isArray(plan) ? (plan as ForgetGroup[]) : [];
  const doomed = groups
    .flatMap((g) => g.remove ?? [])
    .map((s) => s.id)
    .filter((id): id is string => typeof id === 'string' && !locked.includes(id));
  if (doomed.length === 0) return [];
  await repo.run('exclusive', ['forget', ...doomed]);
  return doomed;
}
