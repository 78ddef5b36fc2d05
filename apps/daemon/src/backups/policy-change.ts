/**
 * Who may change which part of a server's backup policy (docs/backups.md § Retention, limits, schedules): the
 * route needs createServerBackups; `limits` are an administrator's, `retention` (which deletes snapshots) also
 * needs deleteServerBackups, and `hooks` (console lines sent to the game) also sendServerConsole — never more than
 * the caller could do by hand.
 */
import { AppError, type BackupPolicy } from '@hearth/contract';

export interface PolicyCaller {
  admin: boolean;
  perms: readonly string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function checkPolicyChange(current: BackupPolicy, next: BackupPolicy, caller: PolicyCaller): void {
  if (caller.admin) return;
  if (!same(next.limits, current.limits)) throw new AppError('ErrNoPermission', { field: 'limits' });
  if (!same(next.retention, current.retention) && !caller.perms.includes('deleteServerBackups'))
    throw new AppError('ErrMissingScope', { scope: 'servers.backups.delete', field: 'retention' });
  if (!same(next.hooks, current.hooks) && !caller.perms.includes('sendServerConsole'))
    throw new AppError('ErrMissingScope', { scope: 'servers.console.send', field: 'hooks' });
}
