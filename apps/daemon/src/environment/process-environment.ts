/**
 * The `standard` and `tty` environments: one OS process at a time (the main process or a one-off install
 * command), started by a {@link Spawner} under a holder that outlives the daemon, so a new daemon re-adopts
 * what runs instead of starting it twice (docs/daemon.md § Supervision). See environment.ts for the contract.
 */
import { AppError, type StopSetting } from '@hearth/contract';
import type { DaemonSay } from '@hearth/contract/daemon-messages';
import { cpuPercent, sampleTree, type TreeSample } from './proc-stats';
import type { Environment, EnvironmentEvents, ExitState, ProcessSpec, ProcessStats } from './environment';
import { attachHolder, holderEnds } from './holder/attach';
import { inspectRun } from './holder/inspect';
import { removeRunDir, type HolderState } from './holder/run-dir';
import type { RunSlot } from './holder/run-slot';
import { OneRunEnvironment } from './one-run-environment';
import { killGroup, type SpawnCallbacks, type SpawnedProcess, type Spawner } from './spawner';

/** What supervision needs of the server: where its holder keeps its record (shared with the spawner), its console. */
export interface Supervision {
  slot: RunSlot;
  /** A daemon line in the server's console, by code (contract daemon-messages). */
  say: DaemonSay;
}

interface Current {
  proc: SpawnedProcess;
  main: boolean;
  exited: Promise<ExitState>;
}

export class ProcessEnvironment extends OneRunEnvironment<Current, TreeSample> implements Environment {
  /** Wall-clock start of the main run, known from the holder's record when it was adopted. */
  private startedAt: number | null = null;
  /** A spawn is under way (holder starting); a kill meanwhile is carried out as soon as the process exists. */
  private spawning = false;
  private killOnSpawn = false;

  constructor(
    readonly type: 'standard' | 'tty',
    private readonly spawner: Spawner,
    private readonly events: EnvironmentEvents,
    private readonly supervision: Supervision,
  ) {
    super();
  }

  /** Runs `open` with callbacks wired to this environment and makes its process the current run. */
  private async track(
    main: boolean,
    open: (callbacks: SpawnCallbacks) => Promise<SpawnedProcess>,
  ): Promise<Current> {
    let settle: (state: ExitState) => void = () => undefined;
    const exited = new Promise<ExitState>((resolve) => (settle = resolve));
    const proc = await open({
      output: (text) => this.events.output(text),
      exit: (code, signal) => settle({ code, signal }),
    });
    const current: Current = { proc, main, exited };
    this.current = current;
    void exited.then((state) => this.onExit(current, state));
    return current;
  }

  private async spawn(spec: ProcessSpec, main: boolean): Promise<Current> {
    this.assertCanRun();
    if (this.spawning) throw new AppError('ErrServerRunning');
    this.supervision.slot.role = main ? 'main' : 'once';
    this.spawning = true;
    this.killOnSpawn = false;
    try {
      const current = await this.track(main, (callbacks) => this.spawner(spec, callbacks));
      if (this.killOnSpawn || this.destroyed) killGroup(current.proc.pid); // killed or deleted meanwhile
      return current;
    } finally {
      this.spawning = false;
    }
  }

  private onExit(current: Current, state: ExitState): void {
    if (this.current === current) this.current = null;
    if (!current.main) return;
    this.reportExit(state);
  }

  private reportExit(state: ExitState): void {
    this.exitState = state;
    this.lastSample = null;
    this.events.exit(state);
  }

  async start(spec: ProcessSpec): Promise<void> {
    const current = await this.spawn(spec, true);
    this.startedAt = Date.now();
    this.lastSample = await sampleTree(current.proc.pid);
  }

  async execute(spec: ProcessSpec): Promise<ExitState> {
    const current = await this.spawn(spec, false);
    return current.exited;
  }

  /**
   * After a daemon restart: re-attaches to the server's living holder (true, running), or reports the exit
   * of a process that ended while the daemon was away (true; `exit` follows on a later turn, so the crash
   * policy applies), or finds nothing to adopt (false). A one-off install command left running is killed.
   */
  async adopt(): Promise<boolean> {
    return this.adoptFound(true);
  }

  private async adoptFound(mayRetry: boolean): Promise<boolean> {
    if (this.current || this.destroyed) return false;
    const found = await inspectRun(this.supervision.slot.dir);
    const { say } = this.supervision;
    switch (found.kind) {
      case 'none':
        if (found.invalid) say('supervision.recordRemoved', {});
        return false;
      case 'running':
        if (found.state.role !== 'main') return this.endOneOff(found.state);
        return this.reattach(found.state, mayRetry);
      case 'ended':
        if (found.state.role !== 'main') return false;
        say('supervision.endedAway', {});
        if (found.output.length > 0) this.events.output(found.output.toString('utf8'));
        return this.reportLater(found.state, found.exit, found.endedAt);
      case 'orphan':
        if (found.state.role !== 'main') return false;
        say('supervision.orphanKilled', { pid: found.state.game.pid });
        return this.reportLater(found.state, { code: null, signal: 'SIGKILL' }, Date.now());
    }
  }

  private async reattach(state: HolderState, mayRetry: boolean): Promise<boolean> {
    try {
      await this.track(true, (callbacks) => {
        const attached = attachHolder(this.supervision.slot.dir, state, callbacks);
        const pid = state.game.pid;
        // Logged once connected and before the holder's replay arrives (it comes on a later turn).
        void attached.then(
          () => this.supervision.say('supervision.reattached', { pid }),
          () => undefined, // the failure is handled below
        );
        return attached;
      });
    } catch (err) {
      // The process ended between the look and the connection and its holder is finishing (its socket is
      // already gone): once the holder has ended, what it left is an ended run. A holder that lives on but
      // cannot be reached stays recorded, so a start is still refused.
      if (mayRetry && (await holderEnds(state))) return this.adoptFound(false);
      const reason = err instanceof Error ? err.message : String(err);
      this.supervision.say('supervision.reattachFailed', { pid: state.game.pid, reason });
      throw err;
    }
    this.startedAt = state.startedAt;
    this.lastSample = await sampleTree(state.game.pid);
    return true;
  }

  /** An install command the previous daemon left: killed, and its holder's end awaited. */
  private async endOneOff(state: HolderState): Promise<boolean> {
    this.supervision.say('supervision.oneOffKilled', {});
    killGroup(state.game.pid);
    const ended = new Promise<void>((resolve) => {
      const callbacks = { output: () => undefined, exit: () => resolve() };
      attachHolder(this.supervision.slot.dir, state, callbacks).catch(() => resolve());
    });
    await ended;
    // The holder may have ended before the attach (then nobody else removes its folder): once it is gone, its
    // record names nothing to adopt.
    if (await holderEnds(state)) await removeRunDir(this.supervision.slot.dir);
    return false;
  }

  /** Reports an exit that happened while the daemon was away, after the caller has seen `adopt` answer. */
  private reportLater(state: HolderState, exit: ExitState, endedAt: number): boolean {
    // The crash policy measures the run as now − start: shift the start so that is the run's real length.
    this.startedAt = Date.now() - Math.max(0, endedAt - state.startedAt);
    setImmediate(() => {
      if (!this.destroyed) this.reportExit(exit);
    });
    return true;
  }

  /** When the current main run started (adopted runs: from the holder's record). */
  runStartedAt(): number | null {
    return this.startedAt;
  }

  async stop(stop: StopSetting): Promise<void> {
    const current = this.current;
    if (!current?.main) return;
    if (stop.type === 'signal') current.proc.signal(stop.value);
    else current.proc.write(stop.value + current.proc.newline);
  }

  async kill(): Promise<void> {
    if (this.current) killGroup(this.current.proc.pid);
    else if (this.spawning) this.killOnSpawn = true;
  }

  async sendCommand(line: string): Promise<void> {
    const current = this.mainRun();
    current.proc.write(line + current.proc.newline);
  }

  /** CPU over the time since the previous call (or since start); memory now. The holder is not counted. */
  async stats(): Promise<ProcessStats> {
    const current = this.current;
    if (!current?.main) return { cpu: 0, memory: 0 };
    const sample = await sampleTree(current.proc.pid);
    const cpu = this.lastSample ? cpuPercent(this.lastSample, sample) : 0;
    this.lastSample = sample;
    return { cpu, memory: sample.memory };
  }

  /** The daemon leaves without stopping the server: its holder keeps it for the next daemon. */
  async detach(): Promise<void> {
    this.destroyed = true;
    this.current?.proc.release();
    this.current = null;
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    const current = this.current;
    if (!current) return;
    killGroup(current.proc.pid);
    await current.exited;
  }
}
