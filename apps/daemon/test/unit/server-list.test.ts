/**
 * The Minetest server list receiver under bad input (docs/daemon.md § Player counts): a real loopback listener;
 * other methods and paths are 404, tokens of other ids 403, oversized or malformed bodies 400 — and none of them
 * changes a count; both form encodings Minetest's curl may use are read.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerListReceiver } from '../../src/metrics/server-list';

const target = (port: number) => ({ type: 'minetest', host: '127.0.0.1', port });

describe('Minetest server list receiver', () => {
  let dir: string;
  let receiver: ServerListReceiver;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-serverlist-'));
    receiver = await ServerListReceiver.create(join(dir, 'serverlist.key'), (id) => id === 'a' || id === 'b');
    await receiver.listen(0);
  });
  afterAll(async () => {
    await receiver?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (url: string, body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', body, headers });
  const form = (json: unknown) => {
    const data = new FormData();
    data.set('json', typeof json === 'string' ? json : JSON.stringify(json));
    return data;
  };

  it('keeps its key private to the daemon (0600)', async () => {
    expect((await stat(join(dir, 'serverlist.key'))).mode & 0o777).toBe(0o600);
  });

  it('reads a multipart or url-encoded announce and answers the count on the announced port', async () => {
    const url = receiver.urlFor('a');
    expect(
      (await post(`${url}/announce`, form({ action: 'start', port: 30000, clients: 2, clients_max: 9 })))
        .status,
    ).toBe(200);
    expect(await receiver.query(target(30000), 'a')).toEqual({ online: 2, max: 9 });
    await expect(receiver.query(target(30001), 'a')).rejects.toThrow();
    const encoded = new URLSearchParams({
      json: JSON.stringify({ action: 'update', port: 30000, clients: 3 }),
    });
    const res = await post(`${url}/announce`, encoded.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    expect(await receiver.query(target(30000), 'a')).toEqual({ online: 3, max: 0 });
    expect((await post(`${url}/announce`, form({ action: 'delete', port: 30000 }))).status).toBe(200);
    await expect(receiver.query(target(30000), 'a')).rejects.toThrow();
  });

  it('refuses other paths, methods, ids, tokens and bodies without keeping anything', async () => {
    const url = receiver.urlFor('b');
    const good = form({ action: 'start', port: 30000, clients: 1, clients_max: 4 });
    expect((await fetch(`${url}/announce`)).status).toBe(404);
    expect((await post(`${url}/announce/more`, good)).status).toBe(404);
    expect((await post(`${url}/list`, good)).status).toBe(404);
    expect((await post(`${receiver.urlFor('a')}/announce`.replace('/a/', '/b/'), good)).status).toBe(403);
    expect((await post(`${receiver.urlFor('nobody')}/announce`, good)).status).toBe(403);
    for (const body of [
      form('{not json'),
      form({ action: 'launch', port: 1 }),
      form({ action: 'start' }),
      'x',
    ]) {
      expect((await post(`${url}/announce`, body)).status).toBe(400);
    }
    const huge = form({ action: 'start', port: 30000, clients: 1, mods: ['m'.repeat(100_000)] });
    const res = await post(`${url}/announce`, huge).catch(() => null); // the receiver may cut the upload short
    expect(res === null || res.status === 400).toBe(true);
    await expect(receiver.query(target(30000), 'b')).rejects.toThrow();
  });
});
