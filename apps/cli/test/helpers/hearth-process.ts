/**
 * A real `hearth` process for the CLI's tests: from source (through tsx, like `npm run hearth`) or from a built
 * tree (plain `node`, nothing imported first). Its output is collected; `waitFor` polls it with a generous cap
 * that only bounds a hung start (never an assertion on time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const SOURCE_MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export interface HearthProcess {
  child: ChildProcess;
  /** stdout and stderr as received, interleaved. */
  output(): string;
  /** The first match of `pattern` in the output; rejects with the output when the process exits first. */
  waitFor(pattern: RegExp, capMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Run `<built>/bin/hearth.js` with plain node instead of the sources. */
  built?: string;
  /** Run inside a pseudo-terminal (util-linux `script`), as an operator at a console would. */
  tty?: boolean;
}

/** The command line that runs hearth with `args`. */
export function hearthCommand(args: string[], options: Pick<SpawnOptions, 'built'>): string[] {
  return options.built
    ? [process.execPath, `${options.built}/bin/hearth.js`, ...args]
    : [process.execPath, '--import', TSX, SOURCE_MAIN, ...args];
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

export function spawnHearth(args: string[], options: SpawnOptions): HearthProcess {
  const command = hearthCommand(args, options);
  // A terminal: `script` gives the command a pty and copies what it prints to our pipe.
  const [bin, ...rest] = options.tty
    ? ['script', '-qfec', `exec ${command.map(quote).join(' ')}`, '/dev/null']
    : command;
  const child = spawn(bin ?? process.execPath, rest, {
    cwd: options.cwd,
    // No NODE_OPTIONS: nothing may be loaded into the process but what the command line says.
    env: { ...process.env, NODE_OPTIONS: '', HEARTH_CONFIG: '', TERM: 'xterm', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    output: () => output,
    async waitFor(pattern, capMs = 90_000) {
      const deadline = Date.now() + capMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          throw new Error(`hearth ${args.join(' ')} never printed ${String(pattern)}:\n${output}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
