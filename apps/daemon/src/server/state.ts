/**
 * The lifecycle states of a daemon Server and the transitions allowed between them (docs/daemon.md § Server
 * states). `Server.move` is the only place that changes a server's state; it refuses anything not in this
 * table with an internal assertion, because callers check the user-facing preconditions (ErrServerRunning,
 * ErrServerBusy, ErrServerInstalling, see power.ts) before asking for a transition.
 */
export const serverStates = [
  'stopped',
  'starting',
  'running',
  'stopping',
  'installing',
  'restart-pending',
] as const;

export type ServerState = (typeof serverStates)[number];

export const allowedTransitions: Readonly<Record<ServerState, readonly ServerState[]>> = {
  // start or restart; install; a process adopted at boot; the crash policy schedules a restart.
  stopped: ['starting', 'installing', 'running', 'restart-pending'],
  // spawned; a kill (or daemon shutdown) while the process comes up; pre hooks or spawn failed, or it died at once.
  starting: ['running', 'stopping', 'stopped'],
  // a stop, kill or restart; an install (it stops the process itself); the process exited on its own.
  running: ['stopping', 'installing', 'stopped'],
  // the process exited; an install or start accepted while a kill's exit is still on its way.
  stopping: ['stopped', 'installing', 'starting'],
  installing: ['stopped'],
  // the timer fired or a user started it; an install; a stop or kill called it off.
  'restart-pending': ['starting', 'installing', 'stopped'],
};

export function canTransition(from: ServerState, to: ServerState): boolean {
  return allowedTransitions[from].includes(to);
}

/** A transition outside the table is a bug in the daemon, not a user's mistake: an internal error (500). */
export function assertTransition(from: ServerState, to: ServerState): void {
  if (!canTransition(from, to)) throw new Error(`Illegal server state transition: ${from} → ${to}`);
}
