/** The panel's side of a transfer as the tests play it: HTTP with trailers (fetch hides them), and tar crafting. */
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Header } from 'tar';
import {
  DAEMON_TOKEN_PANEL_SUBJECT,
  TRANSFER_SHA256_TRAILER,
  type TransferDataReport,
} from '@hearth/contract';
import type { TestDaemon } from './helpers/test-daemon';

export const panelToken = (d: TestDaemon) => d.token({ admin: true, sub: DAEMON_TOKEN_PANEL_SUBJECT });

export interface ExportResult {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  trailer: string | undefined;
  /** The SHA-256 of the bytes as received here. */
  sha256: string;
}

/** Starts an export; the response is handed over unread (a test may hold it open). */
export async function openExport(d: TestDaemon, id: string): Promise<IncomingMessage> {
  const token = await panelToken(d);
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${d.url}/daemon/transfer/${id}/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    req.on('response', resolve).on('error', reject).end();
  });
}

export async function readExport(res: IncomingMessage): Promise<ExportResult> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const trailer = res.trailers[TRANSFER_SHA256_TRAILER];
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body,
    trailer,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
}

export async function exportFrom(d: TestDaemon, id: string): Promise<ExportResult> {
  return readExport(await openExport(d, id));
}

export async function prepare(d: TestDaemon, id: string, definition: unknown, bytes: number) {
  return d.request('POST', `/daemon/transfer/${id}/prepare`, {
    token: await panelToken(d),
    body: { definition, bytes },
  });
}

export async function sendData(
  d: TestDaemon,
  id: string,
  body: Buffer,
): Promise<{ status: number; json: TransferDataReport & { error?: { code: string } } }> {
  const res = await fetch(`${d.url}/daemon/transfer/${id}/data`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await panelToken(d)}`, 'content-type': 'application/x-tar' },
    body,
  });
  return {
    status: res.status,
    json: (await res.json()) as TransferDataReport & { error?: { code: string } },
  };
}

export async function commit(d: TestDaemon, id: string, sha256: string) {
  return d.request('POST', `/daemon/transfer/${id}/commit`, { token: await panelToken(d), body: { sha256 } });
}

export async function abort(d: TestDaemon, id: string) {
  return d.request('DELETE', `/daemon/transfer/${id}`, { token: await panelToken(d) });
}

export async function errorCode(res: Response): Promise<string | undefined> {
  return ((await res.json()) as { error?: { code?: string } }).error?.code;
}

// ---- tar crafting (what a hostile or broken sender could send) ----

export interface CraftedEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  body?: Buffer | string;
  mode?: number;
  linkpath?: string;
}

export function craftTar(entries: CraftedEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const type = entry.type ?? 'File';
    const header = new Header({
      path: entry.path,
      type,
      size: type === 'File' ? body.length : 0,
      mode: entry.mode ?? (type === 'Directory' ? 0o755 : 0o644),
      linkpath: entry.linkpath ?? '',
      mtime: new Date('2024-01-02T03:04:05Z'),
      uid: 0,
      gid: 0,
      devmaj: 1,
      devmin: 3,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

// ---- comparing trees ----

export interface TreeEntry {
  kind: 'dir' | 'file' | 'link' | 'other';
  mode: number;
  uid: number;
  /** A file's SHA-256, a link's target. */
  content: string;
}

export async function describeTree(root: string): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>();
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(join(root, rel))).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const full = join(root, path);
      const st = await lstat(full);
      const mode = st.mode & 0o7777;
      if (st.isDirectory()) {
        out.set(path, { kind: 'dir', mode, uid: st.uid, content: '' });
        await walk(path);
      } else if (st.isSymbolicLink()) {
        out.set(path, { kind: 'link', mode: 0, uid: st.uid, content: await readlink(full) });
      } else if (st.isFile()) {
        const content = createHash('sha256')
          .update(await readFile(full))
          .digest('hex');
        out.set(path, { kind: 'file', mode, uid: st.uid, content });
      } else out.set(path, { kind: 'other', mode, uid: st.uid, content: '' });
    }
  };
  await walk('');
  return out;
}
