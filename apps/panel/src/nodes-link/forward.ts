/**
 * Forwarding a browser's request to a daemon with the body streamed both ways (no buffering in the panel):
 * the shared helper of the daemon proxy routes (servers, files, tasks). Use it inside a scope prepared with
 * {@link streamRequestBodies}, so the request body arrives as the raw stream.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonTokenGrant } from '@hearth/contract';
import type { NodeLink } from './node-link';

/** Replaces the scope's body parsers by a pass-through: every content type reaches the handler unread. */
export function streamRequestBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
}

/**
 * The daemon answered before reading the whole body (413 over its body or upload limit, an early refusal): the
 * rest of the browser's upload is read and dropped here, so the browser finishes sending, reads the answer and
 * can reuse its connection — left unread, the next request on that connection waited about a minute for the
 * server's request timeout. The daemon request ends with its answer (the daemon waits for no more bytes).
 */
function dropRestOf(body: Readable, res: IncomingMessage): void {
  body.unpipe();
  body.resume();
  // A client response carries its request (Node sets `res.req`; @types/node does not declare it).
  const request = (res as IncomingMessage & { req?: ClientRequest }).req;
  res.once('end', () => request?.destroy());
}

export interface ForwardTarget {
  nodeId: string;
  grant: DaemonTokenGrant;
  /** The daemon path, query included. */
  path: string;
  responseMs?: number;
  /** Headers passed on both ways besides the body's own (a tus upload's `Upload-Offset`, `Location`, …). */
  protocolHeaders?: readonly string[];
}

const FORWARDED_HEADERS = ['content-type', 'content-length'] as const;

/** Sends the request to the daemon and pipes the daemon's status, type and body back unchanged. */
export async function forwardRequest(
  link: NodeLink,
  req: FastifyRequest,
  reply: FastifyReply,
  target: ForwardTarget,
): Promise<FastifyReply> {
  const hasBody =
    req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined && req.body !== null;
  const headers: Record<string, string> = {};
  for (const name of target.protocolHeaders ?? []) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (hasBody) {
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (req.headers['transfer-encoding'] && !headers['content-length'])
      headers['transfer-encoding'] = 'chunked';
  }
  const body = hasBody ? (req.body as Readable) : undefined;
  const res = await link.stream(target.nodeId, target.grant, {
    method: req.method,
    path: target.path,
    headers,
    body,
    responseMs: target.responseMs,
  });
  if (body && !body.readableEnded) dropRestOf(body, res);
  reply.status(res.statusCode ?? 502);
  for (const name of [
    'content-type',
    'content-length',
    'content-disposition',
    ...(target.protocolHeaders ?? []),
  ]) {
    const value = res.headers[name];
    if (value !== undefined) reply.header(name, value);
  }
  return reply.send(res);
}
