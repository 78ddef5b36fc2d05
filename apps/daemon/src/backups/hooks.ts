/**
 * Game-aware consistency (docs/backups.md § Hooks): around a backup of a running server, its `pre` console
 * lines are sent, the daemon waits for a console line containing `waitFor` (at most `timeoutSeconds`), the
 * snapshot is taken, and `post` lines are sent whatever happened. A stopped server, or one without hooks, is
 * snapshot as it is (and the snapshot says so when the server was running).
 */
import { AppError, type BackupHooks, type BackupPolicy } from '@hearth/contract';
import type { Server } from '../server/server';

const POLL_MS = 200;

/** The hooks in force: the policy's override, none (`false`), or the template's. */
export function hooksOf(server: Server, policy: BackupPolicy): BackupHooks | null {
  if (policy.hooks === false) return null;
  const hooks = policy.hooks ?? server.getDefinition().backup ?? null;
  return hooks && (hooks.pre.length > 0 || hooks.post.length > 0) ? hooks : null;
}

/** Resolves once the console shows `text` after `epoch`; rejects after the timeout or when the server stops. */
function waitForLine(server: Server, text: string, epoch: number, seconds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const seen = server.console
        .since(epoch)
        .map((c) => c.text)
        .join('');
      if (seen.includes(text)) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() >= deadline || !server.isRunning()) {
        clearInterval(timer);
        reject(new AppError('ErrBackupHookTimeout', { waitFor: text, seconds }));
      }
    }, POLL_MS);
  });
}

export interface HookOutcome {
  /** `ran`: pre (and wait) done before the snapshot; `none`: no hooks, or the server was stopped. */
  hooks: 'ran' | 'none';
  /** The server was running without hooks: files read as they were. */
  asIs: boolean;
}

/** Runs `snapshot` between the hooks (when the server runs and has them). */
export async function withHooks<T>(
  server: Server,
  hooks: BackupHooks | null,
  snapshot: (outcome: HookOutcome) => Promise<T>,
): Promise<T> {
  if (!server.isRunning()) return snapshot({ hooks: 'none', asIs: false });
  if (!hooks) return snapshot({ hooks: 'none', asIs: true });
  server.say('backup.askingSave', {});
  try {
    const epoch = server.console.latestEpoch();
    for (const line of hooks.pre) await server.sendCommand(line);
    if (hooks.waitFor) await waitForLine(server, hooks.waitFor, epoch, hooks.timeoutSeconds);
    return await snapshot({ hooks: 'ran', asIs: false });
  } finally {
    for (const line of hooks.post) {
      try {
        if (server.isRunning()) await server.sendCommand(line);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        server.say('backup.sendFailed', { command: line, reason });
      }
    }
  }
}
