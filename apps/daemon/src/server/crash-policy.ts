/**
 * What to do when a server's process exits (pm2-style crash-loop protection, fixing PufferPanel's habits of
 * restarting after a user's stop and counting a kill as a crash):
 * - a stop or kill asked for by a user never restarts;
 * - a clean exit (code 0, no signal) restarts only with `autorestart`; a crash (non-zero code or a signal
 *   nobody asked for) only with `autorecover`;
 * - a run shorter than `minUptimeMs` is unstable; after `maxUnstableRuns` unstable runs in a row the daemon
 *   gives up; restarts back off exponentially from `backoffInitialMs` up to `backoffMaxMs`.
 */
export interface CrashPolicySettings {
  minUptimeMs: number;
  maxUnstableRuns: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
}

export interface ExitFacts {
  requested: boolean;
  clean: boolean;
  uptimeMs: number;
  autorestart: boolean;
  autorecover: boolean;
}

export type CrashDecision = { restart: boolean; delayMs: number; unstableRuns: number; message: string };

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function decideAfterExit(
  facts: ExitFacts,
  unstableRuns: number,
  s: CrashPolicySettings,
): CrashDecision {
  const none = (message: string, runs = 0): CrashDecision => ({
    restart: false,
    delayMs: 0,
    unstableRuns: runs,
    message,
  });
  if (facts.requested) return none('Stopped on request; no automatic restart.');
  if (facts.clean && !facts.autorestart) return none('Exited cleanly; autorestart is off.');
  if (!facts.clean && !facts.autorecover) return none('Crashed; autorecover is off.');
  const unstable = facts.uptimeMs < s.minUptimeMs;
  const runs = unstable ? unstableRuns + 1 : 0;
  if (runs >= s.maxUnstableRuns) {
    return none(
      `Ran less than ${seconds(s.minUptimeMs)} ${runs} times in a row; giving up. Start it again by hand.`,
      runs,
    );
  }
  const delayMs = Math.min(s.backoffInitialMs * 2 ** Math.max(0, runs - 1), s.backoffMaxMs);
  const why = facts.clean ? 'autorestart' : 'autorecover';
  const note = unstable ? ` (unstable run ${runs} of ${s.maxUnstableRuns})` : '';
  return {
    restart: true,
    delayMs,
    unstableRuns: runs,
    message: `Restarting in ${seconds(delayMs)} (${why})${note}.`,
  };
}
