/**
 * A local HTTP stand-in for Mojang, Forge's Maven, Sponge's download API and Fabric's meta API, answering
 * with documents shaped like the real ones (field names and nesting as upstream serves them).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const jar = (name: string) => Buffer.from(`PK fake jar ${name} ${'z'.repeat(2048)}`);

export interface UpstreamStub {
  base: string;
  files: Record<string, Buffer>;
  close(): Promise<void>;
}

function routes(base: string): Record<string, Buffer | object | string> {
  const files = {
    server: jar('server-1.20.4'),
    snapshot: jar('server-24w03a'),
    forge: jar('forge-1.20.1-47.2.0-installer'),
    forge112: jar('forge-1.12.2-14.23.5.2854-installer'),
    sponge: jar('spongeforge-1.12.2-2838-7.4.7'),
    fabric: jar('fabric-installer-1.0.1'),
  };
  const forgePath = '/maven/net/minecraftforge/forge';
  return {
    '/mojang/version_manifest.json': {
      latest: { release: '1.20.4', snapshot: '24w03a' },
      versions: [
        {
          id: '24w03a',
          type: 'snapshot',
          url: `${base}/mojang/v1/packages/24w03a.json`,
          time: '2024-01-17T13:26:00+00:00',
        },
        {
          id: '1.20.4',
          type: 'release',
          url: `${base}/mojang/v1/packages/1.20.4.json`,
          time: '2023-12-07T12:56:20+00:00',
        },
        {
          id: '1.0.bad',
          type: 'release',
          url: `${base}/mojang/v1/packages/1.0.bad.json`,
          time: '2011-11-18T22:00:00+00:00',
        },
      ],
    },
    '/mojang/v1/packages/1.20.4.json': {
      id: '1.20.4',
      downloads: {
        server: { sha1: sha1(files.server), size: files.server.length, url: `${base}/files/server.jar` },
      },
    },
    '/mojang/v1/packages/24w03a.json': {
      id: '24w03a',
      downloads: {
        server: {
          sha1: sha1(files.snapshot),
          size: files.snapshot.length,
          url: `${base}/files/snapshot.jar`,
        },
      },
    },
    '/mojang/v1/packages/1.0.bad.json': {
      id: '1.0.bad',
      downloads: { server: { sha1: '0'.repeat(40), size: 1, url: `${base}/files/server.jar` } },
    },
    '/files/server.jar': files.server,
    '/files/snapshot.jar': files.snapshot,
    [`${forgePath}/promotions_slim.json`]: {
      homepage: 'https://files.minecraftforge.net',
      promos: { '1.20.1-recommended': '47.2.0', '1.20.1-latest': '47.2.20' },
    },
    [`${forgePath}/1.20.1-47.2.0/forge-1.20.1-47.2.0-installer.jar`]: files.forge,
    [`${forgePath}/1.20.1-47.2.0/forge-1.20.1-47.2.0-installer.jar.sha1`]: sha1(files.forge),
    [`${forgePath}/1.12.2-14.23.5.2854/forge-1.12.2-14.23.5.2854-installer.jar`]: files.forge112,
    '/sponge/v1/org.spongepowered/spongeforge/downloads': [
      {
        version: '1.12.2-2838-7.4.7',
        dependencies: { forge: '14.23.5.2854', minecraft: '1.12.2' },
        artifacts: { '': { url: `${base}/files/spongeforge.jar`, sha1: sha1(files.sponge) } },
        recommended: true,
      },
    ],
    '/files/spongeforge.jar': files.sponge,
    '/fabric/v2/versions/installer': [
      {
        url: `${base}/files/fabric-installer.jar`,
        maven: 'net.fabricmc:fabric-installer:1.0.1',
        version: '1.0.1',
        stable: true,
      },
    ],
    '/files/fabric-installer.jar': files.fabric,
    '/files/plain.txt': 'plain text\n',
  };
}

const SIZED = Buffer.alloc(256 * 1024, 7);

export async function startUpstreamStub(): Promise<UpstreamStub> {
  let table: Record<string, Buffer | object | string> = {};
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/redirect') return res.writeHead(302, { location: '/files/plain.txt' }).end();
    // Sent with its length, so a download of it reports its progress in percent.
    if (path === '/sized.bin')
      return res.writeHead(200, { 'content-length': String(SIZED.length) }).end(SIZED);
    if (path === '/huge')
      return res.writeHead(200, { 'content-length': String(10 * 1024 * 1024 * 1024) }).end();
    const body = table[path];
    if (body === undefined) return res.writeHead(404).end('not found');
    if (Buffer.isBuffer(body) || typeof body === 'string') return res.writeHead(200).end(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  table = routes(base);
  const files = Object.fromEntries(Object.entries(table).filter(([, v]) => Buffer.isBuffer(v))) as Record<
    string,
    Buffer
  >;
  return { base, files, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
