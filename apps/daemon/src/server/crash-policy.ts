/**
 * What to do when a server's process exits (pm2-style crash-loop protection, fixing PufferPanel's habits of
 * restarting after a user's stop and counting a kill as a crash):
 * - a stop or kill asked for by a user never restarts;
 * - a clean exit (code 0, no signal) restarts only with `autorestart`; a crash (non-zero code or a signal
 *   nobody asked for) only with `autorecover`;
 * - a run shorter than `minUptimeMs` is unstable; after `maxUnstableRuns` unstable runs in a row the daemon
 *   gives up; restarts back off exponentially from `backoffInitialMs` up to `backoffMaxMs`.
 */
import {
  daemonMessageLine,
  daemonMessageText,
  type DaemonMessageCode,
  type DaemonMessageParams,
} from '@hearth/contract/daemon-messages';

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

/** `message` is the English text; `line` the console line with its code (contract daemon-messages). */
export type CrashDecision = {
  restart: boolean;
  delayMs: number;
  unstableRuns: number;
  message: string;
  line: string;
};

const seconds = (ms: number) => Math.round(ms / 100) / 10;

function decision<C extends DaemonMessageCode>(
  restart: { restart: boolean; delayMs: number; unstableRuns: number },
  code: C,
  params: DaemonMessageParams<C>,
): CrashDecision {
  return { ...restart, message: daemonMessageText(code, params), line: daemonMessageLine(code, params) };
}

export function decideAfterExit(
  facts: ExitFacts,
  unstableRuns: number,
  s: CrashPolicySettings,
): CrashDecision {
  const none = { restart: false, delayMs: 0, unstableRuns: 0 };
  if (facts.requested) return decision(none, 'crash.stoppedOnRequest', {});
  if (facts.clean && !facts.autorestart) return decision(none, 'crash.cleanNoRestart', {});
  if (!facts.clean && !facts.autorecover) return decision(none, 'crash.noRecover', {});
  const unstable = facts.uptimeMs < s.minUptimeMs;
  const runs = unstable ? unstableRuns + 1 : 0;
  if (runs >= s.maxUnstableRuns) {
    return decision({ ...none, unstableRuns: runs }, 'crash.givingUp', {
      seconds: seconds(s.minUptimeMs),
      runs,
    });
  }
  const delayMs = Math.min(s.backoffInitialMs * 2 ** Math.max(0, runs - 1), s.backoffMaxMs);
  const setting = facts.clean ? 'autorestart' : 'autorecover';
  const restart = { restart: true, delayMs, unstableRuns: runs };
  const wait = seconds(delayMs);
  return unstable
    ? decision(restart, 'crash.restartingUnstable', { seconds: wait, setting, runs, max: s.maxUnstableRuns })
    : decision(restart, 'crash.restarting', { seconds: wait, setting });
}
