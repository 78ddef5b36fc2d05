/**
 * A node that dials the panel (issue 19, docs/adr/0015-outbound-node-link.md), with real processes: the real
 * panel and the real `hearth daemon --config node.json` in outbound mode on loopback, started from the node's
 * deployment config. The panel is never told the daemon's port — the node's private address is a closed port
 * — so everything below travels through the link the daemon opened: a server's creation, start, console over
 * the proxied socket, a file's upload and download, stop. Then the daemon is killed with SIGKILL in the middle
 * of an upload (the request fails at once with ErrNodeLinkLost, the link state turns disconnected) and started
 * again (it reconnects: connected, one more connect). A wrong node secret and a node set to be dialled are
 * refused by the panel, and say so in the daemon's log.
 */
import { randomBytes, createHash } from 'node:crypto';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { fakeGameDefinition } from '../apps/daemon/test/helpers/test-daemon';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { createFirstAdmin, panelApi, startTestPanel, type Account, type TestPanel } from './helpers/panel';
import { startDeployedNode, type DeployedNode } from './helpers/deployed-node';

const WAIT = { timeoutMs: 120_000 };

interface NodeView {
  link: string;
  linkState: { connected: boolean; connects: number; lastError: string | null } | null;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

describe('outbound node link with a real daemon', () => {
  let panel: TestPanel;
  let admin: Account;
  let nodeId: string;
  let config: Record<string, unknown>;
  let node: DeployedNode | null = null;
  const others: DeployedNode[] = [];
  let serverId: string;

  const api = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(panel, admin.session, method, path, body);
  const view = () => api<NodeView>('GET', `/api/nodes/${nodeId}`);
  const nodeStatus = async () =>
    (await api<Array<{ id: string; status: string }>>('GET', '/api/nodes')).find((n) => n.id === nodeId)
      ?.status;
  const proxy = (method: string, path: string, body?: FormData) =>
    fetch(`${panel.url}/proxy/daemon/server/${serverId}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin.session}` },
      body,
    });
  /** The deployment config as written to the node; the loopback ports chosen freely, quick reconnects. */
  const deploy = (overrides: Record<string, unknown> = {}) =>
    startDeployedNode(
      {
        ...config,
        panelUrl: panel.url,
        port: 0,
        sftp: { ...(config.sftp as object), port: 0 },
        linkReconnect: { minMs: 200, maxMs: 2000 },
        ...overrides,
      },
      { startMs: 120_000 },
    );
  const makeNode = async (name: string, link: 'inbound' | 'outbound') => {
    const body = {
      name,
      publicHost: '127.0.0.1',
      publicPort: await freePort(),
      privateHost: '127.0.0.1',
      // A closed port: the panel cannot reach the daemon by dialling, only through the link.
      privatePort: await freePort(),
      sftpPort: await freePort(),
      link,
    };
    const { id } = await api<{ id: string }>('POST', '/api/nodes', body);
    const rotated = await api<{ config: Record<string, unknown> }>(
      'POST',
      `/api/nodes/${id}/deployment/rotate`,
    );
    return { id, config: rotated.config };
  };

  beforeAll(async () => {
    panel = await startTestPanel();
    admin = await createFirstAdmin(panel);
    ({ id: nodeId, config } = await makeNode('behind-nat', 'outbound'));
    expect(config.link).toBe('outbound');
    node = await deploy();
  }, 300_000);
  afterAll(async () => {
    await node?.stop();
    for (const other of others) await other.stop();
    await panel?.stop();
  }, 120_000);

  it(
    'connects and runs a server through the link: create, start, console, files, stop',
    { timeout: 600_000 },
    async () => {
      await waitFor(async () => (await view()).linkState?.connected, 'the node link connected', WAIT);
      expect((await view()).linkState).toMatchObject({ connected: true, connects: 1 });
      const created = await api<{ id: string }>('POST', '/api/servers', {
        ...fakeGameDefinition(),
        name: 'tunnelled',
        node: nodeId,
        users: [],
      });
      serverId = created.id;
      const started = await proxy('POST', '/start?wait=true');
      expect(started.status, await started.text()).toBeLessThan(300);

      const socket = new WebSocket(`${panel.url.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`, {
        headers: { authorization: `Bearer ${admin.session}` },
      });
      const heard = new Promise<void>((resolve) =>
        socket.on('message', (raw: Buffer) => {
          if (raw.toString().includes('echo: hello through the tunnel')) resolve();
        }),
      );
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'console', command: 'hello through the tunnel' }));
      await heard;
      socket.close();

      const data = randomBytes(8 * 1024 * 1024);
      const form = new FormData();
      form.append('file', new Blob([data]), 'blob.bin');
      expect((await proxy('PUT', '/file/blob.bin', form)).status).toBe(204);
      const back = Buffer.from(await (await proxy('GET', '/file/blob.bin')).arrayBuffer());
      expect(createHash('sha256').update(back).digest('hex')).toBe(
        createHash('sha256').update(data).digest('hex'),
      );

      const stopped = await proxy('POST', '/stop?wait=true');
      expect(stopped.status, await stopped.text()).toBeLessThan(300);
    },
  );

  it(
    'a daemon killed mid-upload fails the request at once with ErrNodeLinkLost; restarted, it reconnects',
    { timeout: 600_000 },
    async () => {
      const before = (await view()).linkState?.connects ?? 0;
      // An upload whose body keeps coming: the panel has opened its stream to the daemon and is piping into it.
      const boundary = 'x-hearth-boundary';
      const upload = request(`${panel.url}/proxy/daemon/server/${serverId}/file/slow.bin`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${admin.session}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      upload.write(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="slow.bin"\r\n\r\n`,
      );
      const chunk = randomBytes(1024 * 1024);
      // A body that keeps coming as fast as it is taken (it never ends on its own within the test).
      const pace = setInterval(() => {
        if (upload.writableLength < 4 * 1024 * 1024) upload.write(chunk);
      }, 10);
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        upload.on('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        });
        upload.on('error', reject);
      }).finally(() => {
        clearInterval(pace);
        upload.destroy();
      });
      // Under way for sure: far more has left than the kernel's buffers and the link's window could hold, so the
      // panel is piping it through its stream and the daemon is taking it.
      await waitFor(
        () => (upload.socket?.bytesWritten ?? 0) > 48 * 1024 * 1024,
        'the upload under way',
        WAIT,
      );
      node!.process.kill('SIGKILL');
      const res = await answer;
      expect(res.status, res.body).toBe(502);
      expect((JSON.parse(res.body) as { error: { code: string } }).error.code).toBe('ErrNodeLinkLost');
      await waitFor(
        async () => (await view()).linkState?.connected === false,
        'the link state disconnected',
        WAIT,
      );
      // The link's change is the node's status change (probed when the link drops, not at the next stale read).
      await waitFor(async () => (await nodeStatus()) === 'offline', 'the node listed offline', WAIT);
      // While the node is away its calls fail at once as offline (nothing waits for it).
      const offline = await proxy('GET', '/status');
      expect(offline.status).toBe(502);
      expect(((await offline.json()) as { error: { code: string } }).error.code).toBe('ErrNodeOffline');

      await node!.stop();
      node = await deploy();
      await waitFor(async () => (await view()).linkState?.connected, 'the node link reconnected', WAIT);
      expect((await view()).linkState?.connects).toBe(before + 1);
      await waitFor(async () => (await nodeStatus()) === 'online', 'the node listed online again', WAIT);
      const features = await api<{ environments: string[] }>('GET', `/api/nodes/${nodeId}/features`);
      expect(features.environments).toContain('standard');
    },
  );

  it(
    'refuses a wrong node secret and a node set to be dialled by the panel',
    { timeout: 600_000 },
    async () => {
      const wrong = await deploy({
        sftp: { ...(config.sftp as object), port: 0, clientSecret: 'not-the-secret' },
      });
      others.push(wrong);
      await waitFor(
        () => wrong.output().includes('ErrLoginNotPermitted'),
        'the daemon told it was refused',
        WAIT,
      );
      const inbound = await makeNode('dialled', 'inbound');
      const dialling = await startDeployedNode(
        {
          ...inbound.config,
          link: 'outbound',
          host: '127.0.0.1',
          panelUrl: panel.url,
          port: 0,
          sftp: { ...(inbound.config.sftp as object), host: '127.0.0.1', port: 0 },
        },
        { startMs: 120_000 },
      );
      others.push(dialling);
      await waitFor(
        () => dialling.output().includes('ErrNodeLinkMode'),
        'the daemon told its mode is refused',
        WAIT,
      );
      const inboundView = await api<NodeView>('GET', `/api/nodes/${inbound.id}`);
      expect(inboundView.link).toBe('inbound');
      // The right node's link was not disturbed by either.
      expect((await view()).linkState?.connected).toBe(true);
    },
  );
});
