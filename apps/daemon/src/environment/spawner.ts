/** A spawned OS process as the environments see it: today always a server process kept by its holder. */
export interface SpawnedProcess {
  readonly pid: number;
  /** Writes raw text to the process input. */
  write(text: string): void;
  /** The line terminator this kind of input expects (`\n` for pipes, `\r` for a terminal). */
  readonly newline: string;
  /** Sends a signal to the main process only. */
  signal(signal: NodeJS.Signals | number): void;
  /**
   * Lets go of the process without stopping it (the daemon is leaving for an upgrade): no more output, no
   * `exit`; its holder keeps it running for the next daemon (docs/daemon.md § Supervision).
   */
  release(): void;
}

export interface SpawnCallbacks {
  output(text: string): void;
  /** Called once, after all output was delivered and the process group was cleaned up. */
  exit(code: number | null, signal: string | null): void;
}

/** Resolves once the process runs; rejects (and never calls `exit`) if it could not be started. */
export type Spawner = (
  spec: { command: string; args: string[]; cwd: string; env: Record<string, string> },
  callbacks: SpawnCallbacks,
) => Promise<SpawnedProcess>;

/**
 * Kills the process group led by `pid` (every server process leads its own session/group), so a `bash -c`
 * wrapper's children die with it and nothing is orphaned.
 */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
