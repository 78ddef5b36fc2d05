/**
 * Attack: the panel's edges (docs/security.md § Cross-site requests, § Request budgets, § Socket caps), against a
 * real panel and a daemon started from its deployment config:
 * - #5 a page on another port of the same host rode the session cookie: a cookie-only multipart upload and a
 *   text/plain console POST worked, and a websocket with a foreign Origin opened;
 * - #7 an unauthenticated login body nested 4,500 levels deep cost the event loop up to a second and answered 500;
 * - #8 a console-only user closed the owner's console by opening 22 proxied sockets (the daemon's cap is 20);
 * - #10 an upload over the node's files.maxUploadBytes came back as a 15 s ErrNodeTimeout instead of 413.
 * Each now fails safely with a catalogued error while the owner's normal path keeps working.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import {
  addNodeWithDaemon,
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  type NodeDaemon,
} from '../helpers/daemon-node';
import { browserAvailable, launchBrowser, openSignedIn } from '../helpers/browser';
import { createFirstAdmin, startTestPanel, type Account, type TestPanel } from '../helpers/panel';
import { openSocketAt } from '../helpers/socket-client';

const MAX_UPLOAD = 1024 * 1024;
const canBrowse = browserAvailable('edges attack: socket limit banner');

interface Answer {
  status: number;
  body: string;
  /** The whole request body was taken by the server (a body left unread would stall the connection). */
  sent: () => boolean;
}

/** A request exactly as a hostile page's browser would send it: chosen headers, no bearer. */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer | string,
  agent?: Agent,
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text, sent: () => req.writableFinished }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
const codeOf = (a: Answer) => (JSON.parse(a.body) as ErrorBody).error.code;

function multipart(name: string, data: Buffer): { type: string; body: Buffer } {
  const boundary = 'hearthedges';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

describe('the panel edges hold against a hostile page and a greedy user', () => {
  let panel: TestPanel;
  let admin: Account;
  let node: NodeDaemon & { nodeId: string };
  let serverId = '';
  let foreign = '';
  const base = () => `${panel.url}/proxy/daemon/server/${serverId}`;
  const socketUrl = () => `${panel.url.replace('http', 'ws')}/proxy/daemon/socket/${serverId}`;
  const cookie = () => `hearth_session=${admin.session}`;
  const fileOf = async (path: string) =>
    raw(`${base()}/file/${path}`, 'GET', { authorization: `Bearer ${admin.session}` });

  beforeAll(async () => {
    panel = await startTestPanel();
    admin = await createFirstAdmin(panel);
    node = await addNodeWithDaemon(panel, admin.session, 'edges-node', {
      files: { maxUploadBytes: MAX_UPLOAD },
    });
    serverId = await createFakeGameServer({ panel, admin, nodeId: node.nodeId }, 'edges', { start: true });
    // Another port of the same host: same site as far as SameSite=Strict is concerned.
    const port = Number(new URL(panel.url).port);
    foreign = `http://127.0.0.1:${port + 1}`;
  }, 120_000);
  afterAll(async () => {
    await node?.daemon.close();
    await panel?.stop();
  });

  it('#5 a cookie-only multipart upload from another origin (or none) is 403 ErrCrossSiteRequest; nothing is written', async () => {
    const form = multipart('pwned.txt', Buffer.from('pwned'));
    for (const origin of [foreign, undefined]) {
      const answer = await raw(
        `${base()}/file/pwned.txt`,
        'PUT',
        { cookie: cookie(), 'content-type': form.type, ...(origin ? { origin } : {}) },
        form.body,
      );
      expect([answer.status, codeOf(answer)]).toEqual([403, 'ErrCrossSiteRequest']);
    }
    expect((await fileOf('pwned.txt')).status).toBe(404);
    // The panel's own page (same Origin) with the cookie still uploads: the browser path keeps working.
    const own = await raw(
      `${base()}/file/mine.txt`,
      'PUT',
      { cookie: cookie(), 'content-type': form.type, origin: panel.url },
      form.body,
    );
    expect(own.status).toBe(204);
    expect((await fileOf('mine.txt')).body).toBe('pwned');
  });

  it('#5 a cookie-only text/plain console POST from another origin is refused and never reaches the game', async () => {
    const answer = await raw(
      `${base()}/console`,
      'POST',
      { cookie: cookie(), 'content-type': 'text/plain', origin: foreign },
      'say cross-site',
    );
    expect([answer.status, codeOf(answer)]).toEqual([403, 'ErrCrossSiteRequest']);
    const sent = await raw(
      `${base()}/console`,
      'POST',
      { authorization: `Bearer ${admin.session}`, 'content-type': 'text/plain' },
      'say from-the-owner',
    );
    expect(sent.status).toBe(204);
    const logs = await waitFor(async () => {
      const res = await raw(`${base()}/console`, 'GET', { authorization: `Bearer ${admin.session}` });
      const text = (JSON.parse(res.body) as { logs: string }).logs;
      return text.includes('from-the-owner') ? text : undefined;
    }, 'owner command echoed');
    expect(logs).not.toContain('cross-site');
  });

  it('#5 a websocket with a foreign Origin is refused (403); the panel origin and non-browser clients open', async () => {
    await expect(openSocketAt(socketUrl(), { cookie: cookie(), origin: foreign })).rejects.toThrow(
      'HTTP 403',
    );
    await expect(
      openSocketAt(socketUrl(), { authorization: `Bearer ${admin.session}`, origin: 'null' }),
    ).rejects.toThrow('HTTP 403');
    const allowed: Array<Record<string, string>> = [
      { cookie: cookie(), origin: panel.url },
      { authorization: `Bearer ${admin.session}` },
    ];
    for (const headers of allowed) {
      const client = await openSocketAt(socketUrl(), headers);
      client.send({ type: 'ping' });
      await client.pong(1);
      client.ws.close();
    }
  });

  it('#7 an unauthenticated 9 KB login body nested 4,500 levels deep is 400 ErrBodyTooComplex', async () => {
    const deep = `{"email":${'['.repeat(4500)}${']'.repeat(4500)},"password":"x"}`;
    const answer = await raw(`${panel.url}/auth/login`, 'POST', { 'content-type': 'application/json' }, deep);
    expect([answer.status, codeOf(answer)]).toEqual([400, 'ErrBodyTooComplex']);
    // The panel is still answering logins normally.
    const login = await raw(
      `${panel.url}/auth/login`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: admin.email, password: admin.password }),
    );
    expect(login.status).toBe(200);
  });

  it("#8 22 sockets of a console-only user: the extras get ErrSocketLimit, the owner's console keeps working", async () => {
    const owner = await openSocketAt(socketUrl(), { authorization: `Bearer ${admin.session}` });
    const viewer = await signInServerViewer({ panel, admin }, serverId, {
      viewServerConsole: true,
      sendServerConsole: true,
    });
    const opened = await Promise.all(
      Array.from({ length: 22 }, () =>
        openSocketAt(socketUrl(), { authorization: `Bearer ${viewer.session}` }),
      ),
    );
    await waitFor(() => opened.filter((c) => c.closed).length >= 17, 'extra sockets closed');
    const refused = opened.filter((c) => c.closed);
    const kept = opened.filter((c) => !c.closed);
    expect(refused).toHaveLength(17);
    for (const c of refused) expect(c.closed).toEqual({ code: 4429, reason: 'ErrSocketLimit' });
    // The user's own allowed sockets work.
    kept[0]?.send({ type: 'ping' });
    await kept[0]?.pong(1);
    // The owner's existing socket and a new one both work: commands reach the game and output comes back.
    owner.send({ type: 'console', data: { command: 'say owner-still-here' } });
    await waitFor(() => owner.logs().includes('owner-still-here'), 'owner console output');
    const fresh = await openSocketAt(socketUrl(), { authorization: `Bearer ${admin.session}` });
    fresh.send({ type: 'ping' });
    await fresh.pong(1);
    expect(fresh.closed).toBeNull();
    for (const c of [...kept, owner, fresh]) c.ws.close();
  });

  it.runIf(canBrowse)(
    '#8 in Chromium: a user over their socket cap sees why, instead of a silent retry loop',
    async () => {
      const who = { username: 'greedy', email: 'greedy@example.com', password: 'greedy-password-1' };
      await panelApi(panel, admin.session, 'POST', '/api/users', who);
      await panelApi(panel, admin.session, 'PUT', `/api/servers/${serverId}/user/${who.email}`, {
        viewServerConsole: true,
      });
      const signed = await fetch(`${panel.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: who.email, password: who.password }),
      });
      const session = (await signed.json()) as { session: string; scopes: string[] };
      // The user's five sockets are open elsewhere (other tabs, a script).
      const held = await Promise.all(
        Array.from({ length: 5 }, () =>
          openSocketAt(socketUrl(), { authorization: `Bearer ${session.session}` }),
        ),
      );
      const browser = await launchBrowser();
      try {
        const { page, pageErrors } = await openSignedIn(browser, panel.url, session, `/server/${serverId}`);
        const banner = page.getByTestId('socket-banner');
        await banner.getByText('Too many connections to this server').waitFor();
        expect(pageErrors).toEqual([]);
      } finally {
        await browser.close();
        for (const c of held) c.ws.close();
      }
    },
  );

  it('#10 a daemon 413 reaches the client as 413 with its code, and the connection stays usable', async () => {
    // One keep-alive connection, as a browser reuses it: the next request must not wait behind the refused body.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const auth = { authorization: `Bearer ${admin.session}` };
    try {
      const form = multipart('big.bin', Buffer.alloc(MAX_UPLOAD * 3, 1));
      const upload = await raw(
        `${base()}/file/big.bin`,
        'PUT',
        { ...auth, 'content-type': form.type },
        form.body,
        agent,
      );
      expect([upload.status, codeOf(upload)]).toEqual([413, 'ErrFileTooLarge']);
      // Over the daemon's own body limit (4 MiB): refused before the daemon reads it.
      const blob = await raw(
        `${base()}/file/blob.bin`,
        'PUT',
        { ...auth, 'content-type': 'application/octet-stream' },
        Buffer.alloc(6 * 1024 * 1024, 2),
        agent,
      );
      expect([blob.status, codeOf(blob)]).toEqual([413, 'ErrPayloadTooLarge']);
      expect((JSON.parse(blob.body) as ErrorBody).error.metadata).toEqual({ limit: 4 * 1024 * 1024 });
      // The panel reads and drops the rest of the refused body, so the client finishes its request.
      await waitFor(() => blob.sent(), 'the refused body taken whole');
      const next = await raw(`${base()}/file/big.bin`, 'GET', auth, undefined, agent);
      expect(next.status).toBe(404);
      // Within the limit an upload still lands.
      const small = multipart('small.bin', Buffer.alloc(MAX_UPLOAD / 2, 3));
      const ok = await raw(
        `${base()}/file/small.bin`,
        'PUT',
        { ...auth, 'content-type': small.type },
        small.body,
        agent,
      );
      expect(ok.status).toBe(204);
      await panelApi(panel, admin.session, 'DELETE', `/proxy/daemon/server/${serverId}/file/small.bin`);
    } finally {
      agent.destroy();
    }
  });
});
