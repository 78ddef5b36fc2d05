/**
 * Files through the daemon proxy: `/proxy/daemon/server/{id}/file/*`, `/archive/*`,
 * `/extract/*` — the contract's permission-table rows forwarded as `files` (docs/permissions.md). The caller's
 * server permission is checked here (viewServerFiles to read, putServerFiles to change; admins hold both)
 * and again by the daemon from the token. Bodies stream both ways unparsed
 * (nodes-link/forward.ts), so a 200 MiB upload is never held in the panel's memory; the path is passed on
 * still percent-encoded, exactly as the browser sent it, and the daemon's sandbox judges it.
 */
import type { App } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import { streamedProxyRoutes, urlTail } from './streamed-proxy';

/** Uploads, archives and extractions answer only when done: the response wait is the transfer's length. */
const LONG_RESPONSE_MS = 60 * 60_000;

export function filesProxyRoutes(app: App, link: NodeLink): Promise<void> {
  return streamedProxyRoutes(app, link, 'files', {
    tail: urlTail,
    responseMs: (req) => (req.method === 'DELETE' ? undefined : LONG_RESPONSE_MS),
  });
}
