/**
 * The node credential (docs/api.md "Node-only routes"): daemons call the panel's node-only routes with HTTP
 * Basic `.node_<nodeId>:<secret>`, the client id and secret of their deployment instructions. Only the secret's
 * hash is stored. Every node-only route checks it here, before it reads its body; any failure is 401
 * ErrLoginNotPermitted and says nothing about which part was wrong.
 */
import { AppError } from '@hearth/contract';
import { hashToken, safeEqual } from '../../lib/tokens';
import type { NodesRepository } from './nodes.repository';

const refused = () => new AppError('ErrLoginNotPermitted', { reason: 'node credential' }, { status: 401 });

/** `Authorization: Basic …` split into client id and secret; anything else is refused. */
export function basicOf(header: string | undefined): { id: string; secret: string } {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw refused();
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The node named by a `.node_<id>` client id whose secret matches the stored hash; else 401. */
export async function nodeOf(nodes: NodesRepository, clientId: string, secret: string): Promise<string> {
  const id = clientId.startsWith('.node_') ? clientId.slice('.node_'.length) : '';
  const row = id ? await nodes.findById(id) : undefined;
  if (!row || !secret || !safeEqual(hashToken(secret), row.secret_hash)) throw refused();
  return row.id;
}

/** The calling node's id from the request's `Authorization` header; else 401. */
export function authenticateNode(nodes: NodesRepository, header: string | undefined): Promise<string> {
  const { id, secret } = basicOf(header);
  return nodeOf(nodes, id, secret);
}
