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
  stop(): Promise<void>;
}

/** Resolves with the setup link once both the panel and the local node are up. */
function waitForStart(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const setup = /(http\S+\/auth\/setup\?token=\S+)/.exec(out)?.[1];
      if (setup && out.includes('Local node started')) done(setup);
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
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'apps/cli/src/main.ts'), '--config', join(dir, 'config.json'), 'start'],
    { cwd: ROOT, env: { ...process.env, HEARTH_CONFIG: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const setupUrl = await waitForStart(child);
    return { port, sftpPort, dataDir, setupUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
