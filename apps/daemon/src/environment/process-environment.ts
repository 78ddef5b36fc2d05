/**
 * The `standard` and `tty` environments: one OS process at a time (the main process or a one-off install
 * command), started by a {@link Spawner}. See environment.ts for the contract of each method.
 */
import type { StopSetting } from '@hearth/contract';
import { cpuPercent, sampleTree, type TreeSample } from './proc-stats';
import type { Environment, EnvironmentEvents, ExitState, ProcessSpec, ProcessStats } from './environment';
import { OneRunEnvironment } from './one-run-environment';
import { killGroup, type SpawnedProcess, type Spawner } from './spawner';

interface Current {
  proc: SpawnedProcess;
  main: boolean;
  exited: Promise<ExitState>;
}

export class ProcessEnvironment extends OneRunEnvironment<Current, TreeSample> implements Environment {
  constructor(
    readonly type: 'standard' | 'tty',
    private readonly spawner: Spawner,
    private readonly events: EnvironmentEvents,
  ) {
    super();
  }

  private async spawn(spec: ProcessSpec, main: boolean): Promise<Current> {
    this.assertCanRun();
    let settle: (state: ExitState) => void = () => undefined;
    const exited = new Promise<ExitState>((resolve) => (settle = resolve));
    const proc = await this.spawner(spec, {
      output: (text) => this.events.output(text),
      exit: (code, signal) => settle({ code, signal }),
    });
    const current: Current = { proc, main, exited };
    this.current = current;
    void exited.then((state) => this.onExit(current, state));
    return current;
  }

  private onExit(current: Current, state: ExitState): void {
    if (this.current === current) this.current = null;
    if (!current.main) return;
    this.exitState = state;
    this.lastSample = null;
    this.events.exit(state);
  }

  async start(spec: ProcessSpec): Promise<void> {
    const current = await this.spawn(spec, true);
    this.lastSample = await sampleTree(current.proc.pid);
  }

  async execute(spec: ProcessSpec): Promise<ExitState> {
    const current = await this.spawn(spec, false);
    return current.exited;
  }

  async stop(stop: StopSetting): Promise<void> {
    const current = this.current;
    if (!current?.main) return;
    if (stop.type === 'signal') current.proc.signal(stop.value);
    else current.proc.write(stop.value + current.proc.newline);
  }

  async kill(): Promise<void> {
    if (this.current) killGroup(this.current.proc.pid);
  }

  async sendCommand(line: string): Promise<void> {
    const current = this.mainRun();
    current.proc.write(line + current.proc.newline);
  }

  /** CPU over the time since the previous call (or since start); memory now. */
  async stats(): Promise<ProcessStats> {
    const current = this.current;
    if (!current?.main) return { cpu: 0, memory: 0 };
    const sample = await sampleTree(current.proc.pid);
    const cpu = this.lastSample ? cpuPercent(this.lastSample, sample) : 0;
    this.lastSample = sample;
    return { cpu, memory: sample.memory };
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    const current = this.current;
    if (!current) return;
    killGroup(current.proc.pid);
    await current.exited;
  }
}
