/**
 * A server's lifecycle state (state.ts) and what belongs to it: when the process started, the crash policy's
 * count of unstable runs, the pending automatic restart and the abort of the running phase. `move` is the only
 * code that changes the state (docs/daemon.md § Server states); the other methods say what happened.
 */
import { assertTransition, type ServerState } from './state';

export class StateMachine {
  private current: ServerState = 'stopped';
  private started = 0;
  private unstable = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Aborts the running install/pre/post phase when the user kills the server. */
  private phaseAbort: AbortController | null = null;

  /** `emitStatus` sends the server's wire status (`{running, installing}`) to its listeners. */
  constructor(private readonly emitStatus: () => void) {}

  get state(): ServerState {
    return this.current;
  }

  /** When this run's process was spawned (ms since the epoch); 0 before the first start. */
  get startedAt(): number {
    return this.started;
  }

  /** Unstable runs in a row, for the crash policy (crash-policy.ts). */
  get unstableRuns(): number {
    return this.unstable;
  }

  setUnstableRuns(runs: number): void {
    this.unstable = runs;
  }

  /**
   * The one place the state changes (transitions in state.ts). Leaving `restart-pending` calls the timer off;
   * status events go out where the wire status (`running`, `installing`) changes.
   */
  private move(to: ServerState): void {
    const from = this.current;
    assertTransition(from, to);
    this.current = to;
    if (from === 'restart-pending' && this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    if (to === 'running' || to === 'installing' || from === 'installing') this.emitStatus();
  }

  /**
   * A start (by hand, restart or automatic) begins: pre hooks, then the spawn. The start time is this run's from
   * here on, so an exit before `markStarted` (a process that dies at once) never counts from 0 or a previous run.
   */
  beginStarting(): void {
    this.move('starting');
    this.started = Date.now();
  }

  /** The main process is being spawned (pre hooks are done): its uptime counts from now. */
  spawning(): void {
    if (this.current === 'starting') this.started = Date.now();
  }

  /** The process is up; false when a kill or an early exit already moved the server on. */
  markStarted(): boolean {
    if (this.current !== 'starting') return false;
    this.move('running');
    return true;
  }

  /** Pre hooks or the spawn failed (a process that did start and died is handled by its exit). */
  startFailed(): void {
    if (this.current === 'starting') this.move('stopped');
  }

  /** A user's stop or kill (or the daemon's shutdown): the coming exit is not a crash. */
  requestExit(): void {
    if (this.current === 'running' || this.current === 'starting') this.move('stopping');
  }

  beginInstalling(): void {
    this.move('installing');
  }

  endInstalling(): void {
    this.move('stopped');
  }

  /** The crash policy's automatic restart, after `delayMs`; only from `stopped` (a user may have acted since). */
  scheduleRestart(delayMs: number, restart: () => void): void {
    if (this.current !== 'stopped') return;
    this.move('restart-pending');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      restart();
    }, delayMs);
  }

  /** Calls off a pending automatic restart (a stop, kill, or a failed automatic start). */
  cancelRestart(): void {
    if (this.current === 'restart-pending') this.move('stopped');
  }

  /** The abort of the phase (install, pre or post hooks) now running; a user's kill aborts it. */
  enterPhase(abort: AbortController): void {
    this.phaseAbort = abort;
  }

  leavePhase(abort: AbortController): void {
    if (this.phaseAbort === abort) this.phaseAbort = null;
  }

  /** Aborts the running phase; false when none runs. */
  abortPhase(): boolean {
    if (!this.phaseAbort) return false;
    this.phaseAbort.abort();
    return true;
  }

  /** A process that outlived the previous daemon was taken over at boot. */
  adopted(startedAt: number): void {
    this.started = startedAt;
    this.move('running');
  }

  /**
   * The main process exited: true when that was asked for (a user's stop or kill, or an install stopping it;
   * an install keeps its state meanwhile).
   */
  exited(): boolean {
    const requested = this.current === 'stopping' || this.current === 'installing';
    if (this.current === 'starting' || this.current === 'running' || this.current === 'stopping')
      this.move('stopped');
    return requested;
  }
}
