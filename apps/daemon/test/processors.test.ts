/** Every processor against a local stand-in for Mojang/Forge/Sponge/Fabric, plus failures and SSRF refusals. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDaemonMessage } from '@hearth/contract/daemon-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstreamStub, type UpstreamStub } from './helpers/upstream-stub';
import { startTestDaemon, type TestDaemon } from './helpers/test-daemon';

describe('install processors', () => {
  let stub: UpstreamStub;
  let d: TestDaemon;
  let strict: TestDaemon;
  beforeAll(async () => {
    stub = await startUpstreamStub();
    const upstream = {
      mojangManifestUrl: `${stub.base}/mojang/version_manifest.json`,
      forgeMavenUrl: `${stub.base}/maven`,
      spongeApiUrl: `${stub.base}/sponge`,
      fabricMetaUrl: `${stub.base}/fabric`,
    };
    d = await startTestDaemon({
      upstream,
      downloads: { allowPrivateAddresses: true, maxBytes: 1024 * 1024 },
    });
    strict = await startTestDaemon({ upstream });
  });
  afterAll(async () => {
    await d.close();
    await strict.close();
    await stub.close();
  });

  async function install(
    daemon: TestDaemon,
    id: string,
    steps: unknown[],
  ): Promise<{ status: number; logs: string }> {
    const token = await daemon.admin();
    await daemon.request('PUT', `/daemon/server/${id}`, {
      token,
      body: { run: { command: 'true' }, install: steps },
    });
    const res = await daemon.request('POST', `/daemon/server/${id}/install?wait=true`, { token });
    const logs = (
      (await (await daemon.request('GET', `/daemon/server/${id}/console`, { token })).json()) as {
        logs: string;
      }
    ).logs;
    return { status: res.status, logs };
  }
  const file = (daemon: TestDaemon, id: string, path: string) =>
    readFile(join(daemon.config.serversDir ?? '', id, path));

  it('runs every processor type in order', async () => {
    const { status, logs } = await install(d, 'all', [
      { type: 'download', files: `${stub.base}/redirect` },
      { type: 'mojangdl', version: 'latest', target: 'server.jar' },
      { type: 'mojangdl', version: 'snapshot', target: 'snapshot.jar' },
      { type: 'forgedl', version: '1.20.1-recommended', filename: 'forge-installer.jar' },
      { type: 'spongeforgedl', releaseType: 'recommended' },
      { type: 'fabricdl', targetFile: 'fabric.jar' },
      { type: 'mkdir', target: 'config/sub' },
      { type: 'writefile', target: 'config/server.properties', text: 'motd=old\nport=1\n' },
      {
        type: 'alterfile',
        file: 'config/server.properties',
        search: '^motd=.*$',
        replace: 'motd=${serverId}',
      },
      {
        type: 'alterfile',
        file: 'config/server.properties',
        regex: false,
        search: 'port=1',
        replace: 'port=$2',
      },
      { type: 'move', source: '*.jar', target: 'jars' },
      { commands: 'sh -c "ls jars > listing.txt"' },
    ]);
    expect(logs).toContain('Install finished');
    expect(status).toBe(204);
    expect(await file(d, 'all', 'plain.txt')).toEqual(Buffer.from('plain text\n'));
    expect(await file(d, 'all', 'jars/server.jar')).toEqual(stub.files['/files/server.jar']);
    expect(await file(d, 'all', 'jars/snapshot.jar')).toEqual(stub.files['/files/snapshot.jar']);
    expect((await file(d, 'all', 'mods/_aspongeforge.jar')).length).toBeGreaterThan(0);
    expect((await file(d, 'all', 'config/server.properties')).toString()).toBe('motd=all\nport=$2\n');
    expect((await file(d, 'all', 'listing.txt')).toString().split('\n')).toEqual(
      expect.arrayContaining(['fabric.jar', 'forge-installer.jar', 'server.jar', 'snapshot.jar']),
    );
    expect(logs).toContain('(SHA-1 verified)');
    expect(logs).toMatch(/Install step 12\/12 \(command\)/);
    // The downloaders' own lines carry their code after the English text (issue 16 item 13).
    const coded = logs.split('\n').flatMap((l) => parseDaemonMessage(l) ?? []);
    expect(coded).toContainEqual({
      code: 'minecraft.version',
      params: { version: '1.20.4' },
      text: '[DAEMON] Minecraft version 1.20.4',
    });
    expect(coded).toContainEqual({
      code: 'fabric.installer',
      params: { version: '1.0.1' },
      text: '[DAEMON] Fabric installer 1.0.1',
    });
  });

  it('writes the download progress by code, with the English text before the marker', async () => {
    const { status, logs } = await install(d, 'sized', [
      { type: 'download', files: `${stub.base}/sized.bin` },
    ]);
    expect(status).toBe(204);
    const coded = logs.split('\n').flatMap((l) => parseDaemonMessage(l) ?? []);
    const progress = coded.filter((m) => m.code === 'download.receivedPercent');
    expect(progress.length).toBeGreaterThan(0);
    for (const m of progress) {
      expect(m.text).toBe(`[DAEMON]   ${m.params.mib} MiB received (${m.params.percent}%)`);
      expect(m.text).toMatch(/^\[DAEMON\] {3}\d+\.\d MiB received \(\d+%\)$/);
    }
  });

  it('stops at the first failure with a clear console trail', async () => {
    const { status, logs } = await install(d, 'half', [
      { type: 'writefile', target: 'first.txt', text: '1' },
      { type: 'mojangdl', version: '1.0.bad', target: 'server.jar' },
      { type: 'writefile', target: 'third.txt', text: '3' },
    ]);
    expect(status).toBe(400);
    expect(logs).toMatch(
      /Install step 2\/3 \(mojangdl\) failed: Download from .* refused: SHA-1 [0-9a-f]+ does not match 0+/,
    );
    expect(logs).toContain('Install failed');
    const root = join(d.config.serversDir ?? '', 'half');
    expect(existsSync(join(root, 'first.txt'))).toBe(true);
    expect(existsSync(join(root, 'server.jar'))).toBe(false);
    expect(existsSync(join(root, 'third.txt'))).toBe(false);
  });

  it('enforces the size limit and refuses non-http URLs and unknown processors', async () => {
    expect((await install(d, 'big', [{ type: 'download', files: [`${stub.base}/huge`] }])).logs).toMatch(
      /exceeds the limit/,
    );
    expect((await install(d, 'ftp', [{ type: 'download', files: ['file:///etc/passwd'] }])).logs).toMatch(
      /file: is not allowed/,
    );
    const unknown = await install(d, 'javadl', [{ type: 'javadl', version: '17' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.logs).toMatch(/Install refused: Unknown processor type 'javadl'/);
  });

  it('refuses loopback and private addresses unless allowed', async () => {
    const byIp = await install(strict, 'ip', [{ type: 'download', files: [`${stub.base}/files/plain.txt`] }]);
    expect(byIp.logs).toMatch(/private or loopback address/);
    const byName = await install(strict, 'name', [
      { type: 'download', files: [stub.base.replace('127.0.0.1', 'localhost') + '/redirect'] },
    ]);
    expect(byName.logs).toMatch(/resolves to a private address/);
    expect(existsSync(join(strict.config.serversDir ?? '', 'name', 'plain.txt'))).toBe(false);
  });
});
