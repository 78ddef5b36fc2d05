/** What happens after the main process exits: console trail, post hooks, then the crash policy. */
import type { ExitState } from '../environment/environment';
import { consoleTail, nodeActor, recordNodeEvent } from '../panel-link/node-events';
import { decideAfterExit } from './crash-policy';
import { beginStart, runPhase } from './power';
import type { Server } from './server';

function sayExit(server: Server, state: ExitState, uptimeMs: number): void {
  const seconds = (uptimeMs / 1000).toFixed(1);
  if (state.signal) server.say('exit.signal', { signal: state.signal, seconds });
  else server.say('exit.code', { code: state.code ?? '?', seconds });
}

async function autoRestart(server: Server, why: string): Promise<void> {
  server.counters.restarts++;
  recordNodeEvent(server.settings, {
    action: 'server.restarted.auto',
    serverId: server.id,
    actor: nodeActor,
    ip: null,
    details: { reason: why },
  });
  try {
    await beginStart(server, true)();
  } catch (err) {
    server.machine.cancelRestart(); // refused before it began: the server is stopped, not waiting any more
    server.say('power.autoRestartFailed', { reason: err instanceof Error ? err.message : String(err) });
  }
}

async function afterExit(server: Server, state: ExitState, requested: boolean): Promise<void> {
  const uptimeMs = Date.now() - server.startedAt;
  sayExit(server, state, uptimeMs);
  const { run } = server.getDefinition();
  try {
    await runPhase(server, 'postStop', run.post);
  } catch (err) {
    server.say('exit.postStopFailed', { reason: err instanceof Error ? err.message : String(err) });
  }
  const clean = state.code === 0 && state.signal === null;
  // A crash for the activity log (docs/activity.md § Node events): an exit nobody asked for that was not clean.
  if (!requested && !clean) {
    recordNodeEvent(server.settings, {
      action: 'server.crashed',
      serverId: server.id,
      actor: nodeActor,
      ip: null,
      details: { exitCode: state.code, signal: state.signal, uptimeMs, lines: consoleTail(server) },
    });
  }
  const facts = { requested, clean, uptimeMs, autorestart: run.autorestart, autorecover: run.autorecover };
  const decision = decideAfterExit(facts, server.machine.unstableRuns, server.settings.crash);
  server.machine.setUnstableRuns(decision.unstableRuns);
  server.log(decision.line);
  const why = clean ? 'autorestart' : 'autorecover';
  if (decision.restart) server.machine.scheduleRestart(decision.delayMs, () => void autoRestart(server, why));
}

/** Wires the crash policy to a server's exits. */
export function attachLifecycle(server: Server): void {
  server.setExitHandler((state, requested) => void afterExit(server, state, requested));
}
