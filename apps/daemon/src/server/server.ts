/**
 * The Server aggregate: one game server's definition, environment, console and status. Power actions live
 * in power.ts (under the {@link PowerLock}); crash handling in lifecycle.ts. This file owns the state they share.
 */
import { join } from 'node:path';
import {
  AppError,
  DAEMON_LINE_PREFIX,
  type PlayerCount,
  type StatsResponse,
  type StatusResponse,
  type Template,
} from '@hearth/contract';
import {
  daemonMessageLine,
  type DaemonMessageCode,
  type DaemonMessageParams,
} from '@hearth/contract/daemon-messages';
import type { DockerSettings } from '../environment/docker/settings';
import type { Environment, ExitState } from '../environment/environment';
import { createEnvironment } from '../environment/factory';
import type { ExtractOptions } from '../filesystem/archive/extract';
import type { Sandbox } from '../filesystem/sandbox';
import type { ProcessorContext, UpstreamSettings } from '../processors/context';
import type { TaskSettings } from '../scheduler/cron';
import type { HttpSettings } from '../processors/http-client';
import type { ServerIds } from '../isolation/ids';
import type { IsolationRuntime } from '../isolation/runtime';
import { ConsoleFanout } from './console-fanout';
import { ConsoleLog } from './console-log';
import type { CrashPolicySettings } from './crash-policy';
import { buildProcessSpec } from './process-spec';
import { PowerLock } from './power-lock';
import type { ServerState } from './state';
import { StateMachine } from './state-machine';
import { substitutionsFor, type Substitutions } from './variables';

export interface ServerSettings {
  console: { bufferBytes: number; flushIntervalMs: number; subscriberQueueBytes: number };
  stopTimeoutMs: number;
  crash: CrashPolicySettings;
  http: HttpSettings;
  upstream: UpstreamSettings;
  /** `files.maxExtract*` and `<dataDir>/tmp`: the extract processor's limits and staging (docs/files.md). */
  extract: ExtractOptions;
  docker: DockerSettings;
  tasks: TaskSettings;
  /** How standard/tty processes are isolated (src/isolation, docs/security.md "Isolation model"). */
  isolation: IsolationRuntime;
  /** `<dataDir>/run`: a directory per server for the holder that keeps its process (docs/daemon.md § Supervision). */
  runDir: string;
  /** The Minetest server list URL of a server, `${hearthServerList}` (docs/daemon.md § Player counts). */
  serverListUrl?: (id: string) => string;
}

export type StatusListener = (status: StatusResponse) => void;

/** Newlines in a piece of output (a line counts when it ends). */
function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export class Server {
  readonly console: ConsoleLog;
  readonly fanout: ConsoleFanout;
  readonly lock = new PowerLock();
  /** The lifecycle state and what belongs to it (state-machine.ts); power.ts and lifecycle.ts drive it. */
  readonly machine = new StateMachine(() => this.emitStatus());
  private exitHandler: (state: ExitState, requested: boolean) => void = () => undefined;
  private edited = false;
  private ids: ServerIds | null = null;
  private playerCount: PlayerCount | null = null;
  /** Totals since the daemon started, for /metrics (docs/daemon.md § Metrics). */
  readonly counters = { consoleLines: 0, restarts: 0 };
  private env: Environment | null = null;
  private readonly statusListeners = new Set<StatusListener>();
  /** Told every piece of output as it arrives (the alert watcher's console patterns; few, and only then). */
  private readonly outputListeners = new Set<(text: string) => void>();
  private exitWaiters: Array<(state: ExitState) => void> = [];
  /** Whether the console's text so far ends a line (see `log`). */
  private atLineStart = true;
  /** Installed successfully at least once (../manager/install-marks.ts); stored by `installRecorder`. */
  private everInstalled = true;
  private installRecorder: () => Promise<void> = async () => undefined;

  constructor(
    readonly id: string,
    private definition: Template,
    readonly sandbox: Sandbox,
    readonly settings: ServerSettings,
  ) {
    this.console = new ConsoleLog(settings.console.bufferBytes);
    this.fanout = new ConsoleFanout(settings.console.flushIntervalMs, settings.console.subscriberQueueBytes);
  }

  get state(): ServerState {
    return this.machine.state;
  }

  get installing(): boolean {
    return this.machine.state === 'installing';
  }

  /** When the running process started (ms since the epoch); 0 before the first start. */
  get startedAt(): number {
    return this.machine.startedAt;
  }

  /** The definition was last written through an admin route (docker `bindings` are honoured only then). */
  get adminEdited(): boolean {
    return this.edited;
  }

  /** The server's own uid/gid (standard/tty under a root daemon); allocated and stored by the manager. */
  get runAs(): ServerIds | null {
    return this.ids;
  }

  /** Players as the template's query last answered (src/metrics/players.ts); null while unknown. */
  get players(): PlayerCount | null {
    return this.playerCount;
  }

  setAdminEdited(edited: boolean): void {
    this.edited = edited;
  }

  setRunAs(ids: ServerIds | null): void {
    this.ids = ids;
  }

  /** The stored mark at load or create, and how a successful install is stored (the manager's InstallMarks). */
  setInstallMark(installed: boolean, record: () => Promise<void>): void {
    this.everInstalled = installed;
    this.installRecorder = record;
  }

  /** A successful install: stored first, then announced, so a status that says installed survives a restart. */
  async markInstalled(): Promise<void> {
    if (this.everInstalled) return;
    await this.installRecorder();
    this.everInstalled = true;
    this.emitStatus();
  }

  /**
   * Ready to start without an install: installed once, or the definition has no install steps at all
   * (docs/daemon.md § Installed mark).
   */
  get installed(): boolean {
    return this.everInstalled || this.definition.install.length === 0;
  }

  setPlayers(count: PlayerCount | null): void {
    this.playerCount = count;
  }

  /** What runs after each exit of the main process (lifecycle.ts); `requested` = a user's stop or kill. */
  setExitHandler(handler: (state: ExitState, requested: boolean) => void): void {
    this.exitHandler = handler;
  }

  getDefinition(): Template {
    return this.definition;
  }

  /** A new definition applies to the next start; an environment type change replaces an idle environment. */
  setDefinition(definition: Template): void {
    const typeChanged = definition.environment.type !== this.definition.environment.type;
    this.definition = definition;
    if (typeChanged && this.env && !this.env.isRunning()) {
      void this.env.destroy();
      this.env = null;
    }
  }

  substitutions(): Substitutions {
    const values = substitutionsFor(this.definition, this.id, this.sandbox.root);
    const serverList = this.settings.serverListUrl?.(this.id);
    return serverList ? { ...values, hearthServerList: serverList } : values;
  }

  environment(): Environment {
    this.env ??= createEnvironment(
      this.definition.environment,
      { output: (text) => this.output(text), exit: (state) => this.handleExit(state) },
      {
        settings: this.settings.docker,
        context: () => ({
          serverId: this.id,
          root: this.sandbox.root,
          definition: this.definition,
          substitutions: this.substitutions(),
          adminEdited: this.adminEdited,
          say: (code, params) => this.say(code, params),
        }),
      },
      { runtime: this.settings.isolation, root: this.sandbox.root, ids: () => this.runAs },
      { runDir: join(this.settings.runDir, this.id), say: (code, params) => this.say(code, params) },
    );
    return this.env;
  }

  /** At boot: takes over a process that outlived the previous daemon (its container or holder). */
  async recover(): Promise<boolean> {
    const env = this.environment();
    if (!env.adopt || !(await env.adopt())) return false;
    this.machine.adopted(env.runStartedAt?.() ?? Date.now());
    return true;
  }

  isRunning(): boolean {
    return this.env?.isRunning() ?? false;
  }

  status(): StatusResponse {
    return { running: this.isRunning(), installing: this.installing, installed: this.installed };
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => void this.statusListeners.delete(listener);
  }

  emitStatus(): void {
    const status = this.status();
    for (const listener of this.statusListeners) listener(status);
  }

  output(text: string): void {
    if (text !== '') this.atLineStart = text.endsWith('\n');
    this.counters.consoleLines += countLines(text);
    this.fanout.publish(this.console.append(text));
    for (const listener of this.outputListeners) listener(text);
  }

  /** Subscribes to the console output as it arrives; answers the unsubscribe function. */
  onOutput(listener: (text: string) => void): () => void {
    this.outputListeners.add(listener);
    return () => void this.outputListeners.delete(listener);
  }

  /**
   * A daemon line, tagged so the console can show it apart. It starts a line of its own: after
   * a prompt without a newline (Freeciv's "> ") the tag would otherwise sit mid-line, where the console ignores it.
   */
  log(line: string): void {
    this.output(`${this.atLineStart ? '' : '\n'}${DAEMON_LINE_PREFIX}${line}\n`);
  }

  /** A daemon line by code: English text plus the marker the web app translates (contract daemon-messages). */
  say<C extends DaemonMessageCode>(code: C, params: DaemonMessageParams<C>): void {
    this.log(daemonMessageLine(code, params));
  }

  /** Resolves at the next exit of the main process (immediately if it is not running). */
  waitForExit(): Promise<ExitState | null> {
    if (!this.isRunning()) return Promise.resolve(this.env?.lastExit() ?? null);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  private handleExit(state: ExitState): void {
    const requested = this.machine.exited();
    const waiters = this.exitWaiters;
    this.exitWaiters = [];
    this.emitStatus();
    for (const resolve of waiters) resolve(state);
    this.exitHandler(state, requested);
  }

  /** The context processors run with; `signal` aborts on a user's kill. */
  processorContext(signal: AbortSignal): ProcessorContext {
    return {
      sandbox: this.sandbox,
      say: (code, params) => this.say(code, params),
      runCommand: async (line) => {
        const spec = await buildProcessSpec(line, this.definition, this.sandbox, this.substitutions());
        if (signal.aborted)
          throw new AppError('ErrProcessorFailed', { step: 0, type: 'command', reason: 'aborted' });
        const onAbort = () => void this.killProcess();
        signal.addEventListener('abort', onAbort);
        try {
          return await this.environment().execute(spec);
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
      http: this.settings.http,
      upstream: this.settings.upstream,
      extract: this.settings.extract,
      signal,
    };
  }

  /** CPU % and memory bytes of the whole process tree (zeros when stopped), and the players when known. */
  async stats(): Promise<StatsResponse> {
    if (!this.env || !this.isRunning()) return { cpu: 0, memory: 0 };
    const usage = await this.env.stats();
    return this.players ? { ...usage, players: this.players } : usage;
  }

  /** One console line to the process input; several lines in one call are refused. */
  async sendCommand(line: string): Promise<void> {
    if (/[\r\n]/.test(line))
      throw new AppError('ErrFieldInvalid', { field: 'command', reason: 'one line only' });
    if (!this.env || !this.isRunning()) throw new AppError('ErrServerOffline');
    await this.env.sendCommand(line);
  }

  /** SIGKILL to whatever process runs (main or install command); no-op without an environment. */
  async killProcess(): Promise<void> {
    await this.env?.kill();
  }

  /**
   * The daemon leaves for an upgrade: everything is released but the process keeps running (its holder or
   * container keeps it) for the next daemon to adopt (docs/daemon.md § Supervision).
   */
  async detach(): Promise<void> {
    this.machine.cancelRestart();
    this.exitHandler = () => undefined;
    this.fanout.close();
    await this.env?.detach?.();
  }

  /** Releases everything; the caller stopped the process first (see power.ts shutdown). */
  async destroy(): Promise<void> {
    this.machine.cancelRestart();
    this.exitHandler = () => undefined;
    this.fanout.close();
    await this.env?.destroy();
  }
}
