/**
 * The activity log of proxied calls against a real daemon: a console command (with the text typed) and a file
 * write (with its path) appear with the caller and their IP once the daemon accepted them; a refused call
 * (403 at the panel, 4xx at the daemon) and a read leave no entry; file contents never appear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ActivityPage } from '@hearth/contract';
import { call } from '../apps/panel/test/helpers/app';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';

describe('activity of proxied daemon calls', () => {
  let f: FilesFixture;
  const url = (path: string) => `${f.panelUrl}/proxy/daemon/server/${f.serverId}${path}`;
  const send = (method: string, path: string, token: string, body?: string | FormData, type?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (type) headers['content-type'] = type;
    return fetch(url(path), { method, headers, body });
  };
  const entries = async (query: string) => {
    const res = await call(f.t, 'GET', `/api/servers/${f.serverId}/activity?${query}`, {
      token: f.admin.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>().entries;
  };
  /** The entry is written once the response went out: poll a little instead of racing it. */
  const settled = async (query: string, count: number) => {
    for (let i = 0; i < 50; i += 1) {
      const found = await entries(query);
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    return entries(query);
  };

  beforeAll(async () => {
    f = await filesFixture('sqlite');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('records a file write with its path and the writer, never the contents', async () => {
    const writer = await f.user({ viewServerFiles: true, putServerFiles: true });
    const fd = new FormData();
    fd.append('file', new Blob(['top secret contents']), 'notes.txt');
    expect((await send('PUT', '/file/docs/notes%20one.txt', writer.token, fd)).status).toBe(204);
    expect((await send('GET', '/file/docs/notes%20one.txt', writer.token)).status).toBe(200);
    const viewer = await f.user({ viewServerFiles: true });
    expect((await send('DELETE', '/file/docs/notes%20one.txt', viewer.token)).status).toBe(403);
    const writes = await settled('action=server.file.', 1);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      action: 'server.file.write',
      actorType: 'user',
      actorId: (await userId(writer.email)) ?? '',
      ip: '127.0.0.1',
      serverId: f.serverId,
      nodeId: f.nodeId,
      details: { path: '/docs/notes one.txt' },
    });
    expect(JSON.stringify(writes)).not.toContain('top secret');
  });

  it('records a console command with the text typed; a refused one is not recorded', async () => {
    const operator = await f.user({ viewServerConsole: true, sendServerConsole: true, startServer: true });
    // The server is stopped: the daemon refuses the command (4xx) and nothing is recorded.
    const refused = await send('POST', '/console', operator.token, 'say while stopped', 'text/plain');
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await send('POST', '/start?wait=true', operator.token)).status).toBeLessThan(300);
    const sent = await send(
      'POST',
      '/console',
      operator.token,
      JSON.stringify({ command: 'say hello =1+1' }),
      'application/json',
    );
    expect(sent.status, await sent.text()).toBeLessThan(300);
    const commands = await settled('action=server.console.command', 1);
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ ip: '127.0.0.1', details: { command: 'say hello =1+1' } });
    expect(commands[0]?.actorId).toBe(await userId(operator.email));
    const starts = await settled('action=server.power.start', 1);
    expect(starts).toHaveLength(1);
    await send('POST', '/kill', f.admin.token);
  });

  it('records a command and a power action sent over the console socket; a refused frame is not', async () => {
    const viewer = await f.user({ viewServerConsole: true });
    const operator = await f.user({ viewServerConsole: true, sendServerConsole: true, stopServer: true });
    const socketUrl = `${f.panelUrl.replace('http', 'ws')}/proxy/daemon/socket/${f.serverId}`;
    const sendOver = async (token: string, frames: object[]) => {
      const ws = new WebSocket(socketUrl, { headers: { authorization: `Bearer ${token}` } });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      for (const frame of frames) ws.send(JSON.stringify(frame));
      // A ping after the frames: its pong means the relay has handled everything before it.
      ws.send(JSON.stringify({ type: 'ping' }));
      await new Promise<void>((resolve) =>
        ws.on('message', (raw: Buffer) => {
          if ((JSON.parse(raw.toString()) as { type?: string }).type === 'pong') resolve();
        }),
      );
      ws.close();
    };
    await sendOver(viewer.token, [{ type: 'console', command: 'say refused' }]);
    await sendOver(operator.token, [{ type: 'console', command: 'say over socket' }, { type: 'kill' }]);
    const commands = await settled('action=server.console.command', 2);
    const viaSocket = commands.filter((e) => e.details.via === 'socket');
    expect(viaSocket.map((e) => e.details.command)).toEqual(['say over socket']);
    expect(viaSocket[0]).toMatchObject({ actorId: await userId(operator.email), ip: '127.0.0.1' });
    const kills = (await settled('action=server.power.kill', 1)).filter((e) => e.details.via === 'socket');
    expect(kills.map((e) => e.actorId)).toEqual([await userId(operator.email)]);
  });

  async function userId(email: string): Promise<string | undefined> {
    const row = await f.t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    return row?.id;
  }
});
