/**
 * `hearth start` as an operator meets it (the built tree, real processes, SQLite in temp folders;
 * docs/configuration.md § Console and § Local node): the first start writes the config file and ends with the
 * setup link; JSON lines when the output is piped, short lines on a terminal; no access lines unless asked for;
 * the local node on the ports of the config, so two can run side by side; `--no-node` never calls it.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHearth } from './helpers/built-tree';
import { spawnHearth, type HearthProcess, type SpawnOptions } from './helpers/hearth-process';
import { countConnections, freePort, untilAnswers } from './helpers/net';
import { listNodes, nodesUntil, setUpAdmin } from './helpers/panel-api';

const SETUP = /(http\S+\/auth\/setup\?token=[\w-]+)/;

interface Ports {
  web: number;
  node: number;
  sftp: number;
}

async function freePorts(): Promise<Ports> {
  return { web: await freePort(), node: await freePort(), sftp: await freePort() };
}

/** Ports as HEARTH_* variables (the config file is then left to the first start). */
const portEnv = (p: Ports) => ({
  HEARTH_WEB_HOST: '127.0.0.1',
  HEARTH_WEB_PORT: String(p.web),
  HEARTH_NODE_PORT: String(p.node),
  HEARTH_NODE_SFTP_HOST: '127.0.0.1',
  HEARTH_NODE_SFTP_PORT: String(p.sftp),
});

/** A config file giving the ports, the data folder in `dir`, and `extra` sections. */
function writeConfig(dir: string, p: Ports, extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'config.json');
  const config = {
    web: { host: '127.0.0.1', port: p.web },
    panel: { dataDir: join(dir, 'data'), databaseUrl: `sqlite:${join(dir, 'data/hearth.db')}` },
    node: { port: p.node, sftpHost: '127.0.0.1', sftpPort: p.sftp },
    ...extra,
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const lines = (output: string) => output.split(/\r?\n/).filter((l) => l.trim() !== '');
// Colours on a terminal: the level tag is wrapped in SGR escapes.
const withoutColour = (line: string) =>
  line.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

describe('hearth start', { timeout: 300_000 }, () => {
  let built = '';
  let removeBuild = () => undefined as void;
  const dirs: string[] = [];
  const running: HearthProcess[] = [];

  beforeAll(() => {
    const tree = buildHearth();
    built = tree.dir;
    removeBuild = tree.remove;
  }, 300_000);
  afterAll(async () => {
    for (const hearth of running) await hearth.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    removeBuild();
  });

  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-start-'));
    dirs.push(dir);
    return dir;
  };
  const start = (args: string[], options: Omit<SpawnOptions, 'built'>) => {
    const hearth = spawnHearth(args, { ...options, built });
    running.push(hearth);
    return hearth;
  };
  /** A few requests of the kinds a browser makes, each answered before this returns. */
  const browse = async (web: number) => {
    for (const path of ['/api/config', '/', '/api/nodes', '/auth/login']) {
      await (await fetch(`http://127.0.0.1:${web}${path}`)).arrayBuffer();
    }
  };
  // The lines of answered requests reach the pipe at once; this leaves the reading side time to collect them.
  const settle = () => new Promise((r) => setTimeout(r, 1_000));

  it('first start, piped: writes the config file (0600, no values from the environment), JSON lines only, no access lines, the setup link last', async () => {
    const dir = tempDir();
    const ports = await freePorts();
    const hearth = start(['start'], { cwd: dir, env: portEnv(ports) });
    const [, url] = await hearth.waitFor(SETUP);
    await browse(ports.web);
    await settle();

    const records = lines(hearth.output()).map((line) => JSON.parse(line) as { msg: string; level: number });
    expect(records.at(-1)?.msg).toContain(`${url} `);
    expect(records.map((r) => r.msg)).not.toContain('request completed');
    expect(records.map((r) => r.msg)).not.toContain('incoming request');
    expect(records.map((r) => r.msg).join('\n')).toContain('created the config file');

    const path = join(dir, 'data/config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // The keys operators edit most, at their defaults; those the environment gave are left to it.
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      panel: { dataDir: './data', databaseUrl: 'sqlite:./data/hearth.db', masterUrl: '' },
      node: { host: '127.0.0.1' },
    });
    await hearth.stop();

    // A second start keeps the file as the operator left it.
    writeFileSync(path, `${JSON.stringify({ panel: { companyName: 'Edited' } })}\n`);
    const again = start(['start'], { cwd: dir, env: portEnv(ports) });
    await again.waitFor(SETUP);
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify({ panel: { companyName: 'Edited' } })}\n`);
    expect(again.output()).not.toContain('created the config file');
    await again.stop();
  });

  it('access lines appear with log.accessLog', async () => {
    const dir = tempDir();
    const ports = await freePorts();
    const config = writeConfig(dir, ports, { log: { accessLog: true } });
    const hearth = start(['--config', config, 'start'], { cwd: dir });
    await hearth.waitFor(SETUP);
    await browse(ports.web);
    await settle();
    const records = lines(hearth.output()).map((line) => JSON.parse(line) as { msg: string; name: string });
    expect(
      records.filter((r) => r.msg === 'request completed' && r.name === 'panel').length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('on a terminal: short human lines and the framed setup link as the last line', async () => {
    const dir = tempDir();
    const ports = await freePorts();
    const config = writeConfig(dir, ports);
    const hearth = start(['--config', config, 'start'], { cwd: dir, tty: true });
    const [, url] = await hearth.waitFor(/┗━ (http\S+)/);
    await browse(ports.web);
    await settle();
    const shown = lines(hearth.output()).map(withoutColour);
    expect(shown.at(-1)?.trim()).toBe(`┗━ ${url}`);
    expect(shown.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(shown.some((line) => /^\d\d:\d\d:\d\d INFO +panel +Server listening/.test(line))).toBe(true);
    expect(shown.some((line) => /^\d\d:\d\d:\d\d INFO +hearth +Local node started/.test(line))).toBe(true);
  });

  it('two hearth start side by side, each reaching its own local node on the ports of its config', async () => {
    const pairs = await Promise.all(
      [tempDir(), tempDir()].map(async (dir) => {
        const ports = await freePorts();
        const hearth = start(['--config', writeConfig(dir, ports), 'start'], { cwd: dir });
        return { ports, hearth };
      }),
    );
    for (const { ports, hearth } of pairs) {
      const [, setupUrl = ''] = await hearth.waitFor(SETUP);
      const panelUrl = `http://127.0.0.1:${ports.web}`;
      const admin = await setUpAdmin(panelUrl, setupUrl);
      const nodes = await nodesUntil(panelUrl, admin, (list) =>
        list.some((n) => n.isLocal && n.status === 'online'),
      );
      expect(nodes.find((n) => n.isLocal)).toMatchObject({ privatePort: ports.node, sftpPort: ports.sftp });
      expect(await untilAnswers(`http://127.0.0.1:${ports.node}/daemon`)).toBe(200);
    }
    for (const { hearth } of pairs) expect(hearth.child.exitCode).toBeNull();
  });

  it('--no-node: the local node shows offline and is never called, while other nodes are', async () => {
    const dir = tempDir();
    const local = await countConnections();
    const other = await countConnections();
    try {
      const ports = { ...(await freePorts()), node: local.port };
      const hearth = start(['--config', writeConfig(dir, ports), 'start', '--no-node'], { cwd: dir });
      const [, setupUrl = ''] = await hearth.waitFor(SETUP);
      const panelUrl = `http://127.0.0.1:${ports.web}`;
      const admin = await setUpAdmin(panelUrl, setupUrl);
      const created = await fetch(`${panelUrl}/api/nodes`, {
        method: 'POST',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'other',
          publicHost: '127.0.0.1',
          publicPort: other.port,
          privateHost: '127.0.0.1',
          privatePort: other.port,
          sftpPort: await freePort(),
        }),
      });
      expect(created.status, await created.clone().text()).toBe(200);

      // Listing probes every node: the other one is called (and is offline: it hangs up), the local one not.
      const nodes = await nodesUntil(panelUrl, admin, (list) => list.every((n) => n.status === 'offline'));
      expect(nodes.find((n) => n.isLocal)?.privatePort).toBe(local.port);
      expect(other.count()).toBeGreaterThan(0);
      const features = await fetch(`${panelUrl}/api/nodes/local/features`, { headers: admin.auth });
      expect(features.status).toBe(502);
      expect(((await features.json()) as { error: { code: string } }).error.code).toBe('ErrNodeOffline');
      await listNodes(panelUrl, admin);
      expect(local.count()).toBe(0);
      expect(hearth.output()).toContain('local node not started (--no-node)');
    } finally {
      await local.close();
      await other.close();
    }
  });
});
