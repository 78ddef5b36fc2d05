/**
 * Resumable (tus) uploads through the daemon proxy: `/proxy/daemon/server/{id}/upload` and
 * `/upload/{upload}` — the contract's upload rows, forwarded as `upload` (docs/files.md § Resumable uploads).
 * The caller's putServerFiles is checked here and again by the daemon from the signed token, as for the
 * multipart upload; chunks stream through unparsed (nodes-link/forward.ts) and the tus headers pass both ways.
 * A chunk stays below `files.uploadChunkBytes` (the web client's size), so a proxy in front of the panel that
 * limits a request's body (100 MB at Cloudflare) never sees a larger one.
 */
import type { App } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { streamedProxyRoutes, urlTail } from './streamed-proxy';

/** The tus protocol's headers (requests and answers). */
const TUS_HEADERS = [
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-length',
  'upload-offset',
  'upload-metadata',
  'location',
  'cache-control',
] as const;

/** A chunk's wait: its bytes, then the final move into place (a rename, or a copy across filesystems). */
const CHUNK_RESPONSE_MS = 30 * 60_000;

export function uploadProxyRoutes(app: App, link: NodeLink): Promise<void> {
  return streamedProxyRoutes(app, link, 'upload', {
    tail: urlTail,
    responseMs: (req) => (req.method === 'PATCH' ? CHUNK_RESPONSE_MS : undefined),
    protocolHeaders: TUS_HEADERS,
  });
}
