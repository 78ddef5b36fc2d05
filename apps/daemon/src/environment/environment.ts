/**
 * The environment contract: how a server's process is run. Implementations: `standard` (pipes) and `tty` (a
 * pseudo-terminal), both kept by a holder process that outlives the daemon (holder/); `docker` fits the same contract later (start = create + attach + start container,
 * kill = container kill, stats = container stats). An environment never resolves user paths: it receives
 * absolute, already-sandboxed paths in {@link ProcessSpec}. `docker` lives in docker/ (docs/daemon.md § Docker).
 */
import type { StopSetting } from '@hearth/contract';

export interface ProcessSpec {
  /** Executable (first argv entry). Looked up on PATH by the environment when not absolute. */
  command: string;
  args: string[];
  /** Absolute working directory inside the server root (checked by the caller). */
  cwd: string;
  /** Extra variables on top of the daemon's environment. */
  env: Record<string, string>;
}

export interface ExitState {
  /** Exit code, or null when a signal ended the process. */
  code: number | null;
  /** Signal name (e.g. `SIGKILL`) or null. */
  signal: string | null;
}

export interface ProcessStats {
  /** Percent of one core over the last sampling window, for the whole process tree. */
  cpu: number;
  /** Resident memory in bytes of the whole process tree. */
  memory: number;
}

export interface EnvironmentEvents {
  /** Decoded UTF-8 text in arrival order (never split inside a code point). */
  output(text: string): void;
  /** The main process ended; every byte of its output was delivered before this call. */
  exit(state: ExitState): void;
}

export interface Environment {
  readonly type: 'standard' | 'tty' | 'docker';
  /**
   * Starts the main process. Rejects with ErrServerRunning if a process (main or one-off) is running, or
   * with ErrProcessorFailed-like spawn errors (`ENOENT`) if it cannot be started; then no exit is emitted.
   * Resolves once the process is spawned; output and exit are reported through {@link EnvironmentEvents}.
   */
  start(spec: ProcessSpec): Promise<void>;
  /**
   * Asks the main process to stop: a signal number goes to the main process, a command text is written to
   * its input. Does not wait (the server waits for `exit`). No-op when nothing runs.
   */
  stop(stop: StopSetting): Promise<void>;
  /** SIGKILL to the whole process tree (main or one-off). Idempotent; no-op when nothing runs. */
  kill(): Promise<void>;
  /** Writes one line (a newline is added) to the main process. Rejects with ErrServerOffline if not running. */
  sendCommand(line: string): Promise<void>;
  /** Runs a one-off process to completion (install `command` steps), output through `output`. No `exit` event. */
  execute(spec: ProcessSpec): Promise<ExitState>;
  /** True while the main process runs. */
  isRunning(): boolean;
  /** The last exit of the main process, or null if it never ran. */
  lastExit(): ExitState | null;
  /** CPU and memory of the main process tree; zeros when stopped. Cheap (reads /proc). */
  stats(): Promise<ProcessStats>;
  /**
   * After a daemon restart, takes over a main process still running from before (docker: the container
   * outlives the daemon; standard/tty: its holder does). True when something was adopted: it is then
   * running, with output and exit wired — or (standard/tty) its exit while the daemon was away is reported
   * by `exit` on a later turn, so the crash policy applies. Never starts anything.
   */
  adopt?(): Promise<boolean>;
  /** When the current run started (an adopted run: from its record), or null if unknown. */
  runStartedAt?(): number | null;
  /**
   * The daemon leaves without stopping anything (an upgrade): output and exit are no longer reported and the
   * process keeps running for the next daemon to adopt. The environment is unusable afterwards.
   */
  detach?(): Promise<void>;
  /** Kills anything running and releases resources. The environment is unusable afterwards. */
  destroy(): Promise<void>;
}
