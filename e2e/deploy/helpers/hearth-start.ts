/**
 * `hearth start` (panel + local node in one process) as an operator runs it: a child process from the sources,
 * its own config file and data folder in `dir`, free loopback ports for the panel, the node and SFTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../../helpers/net';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface HearthStart {
  port: number;
  sftpPort: number;
  dataDir: string;
  setupUrl: string;
  /** The `hearth start` process (signals, exit code). */
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Resolves with the setup link once both the panel and the local node are up (without waiting for a setup link
 * when `setup` is false: a start on a data folder that has its administrator prints none).
 */
function waitForStart(child: ChildProcess, setup = true): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const link = /(http\S+\/auth\/setup\?token=\S+)/.exec(out)?.[1];
      if ((link || !setup) && out.includes('Local node started')) done(link ?? '');
      if (out.includes('Local node did not start')) fail(new Error(out));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`hearth start exited (${code}): ${out}`)));
  });
}

/** Starts `hearth start` with `web` and `panel` keys merged into the config (e.g. `{ trustProxy: true }`). */
export async function startHearth(
  dir: string,
  web: Record<string, unknown> = {},
  panel: Record<string, unknown> = {},
): Promise<HearthStart> {
  const port = await freePort();
  const sftpPort = await freePort();
  const dataDir = join(dir, 'data');
  const config = {
    web: { host: '127.0.0.1', port, ...web },
    panel: { dataDir, databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}`, ...panel },
    node: { port: await freePort(), sftpHost: '127.0.0.1', sftpPort },
    log: { level: 'warn' },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return runHearth(dir, { port, sftpPort, dataDir }, true);
}

/** `hearth start` again on the config and data of an earlier `startHearth(dir)` (a restart, an upgrade). */
export function restartHearth(dir: string, earlier: HearthStart): Promise<HearthStart> {
  const { port, sftpPort, dataDir } = earlier;
  return runHearth(dir, { port, sftpPort, dataDir }, false);
}

async function runHearth(
  dir: string,
  at: Pick<HearthStart, 'port' | 'sftpPort' | 'dataDir'>,
  setup: boolean,
): Promise<HearthStart> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'apps/cli/src/main.ts'), '--config', join(dir, 'config.json'), 'start'],
    { cwd: ROOT, env: { ...process.env, HEARTH_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const setupUrl = await waitForStart(child, setup);
    return { ...at, setupUrl, process: child, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
