/**
 * HTTP(S) client for one call to a node's daemon. Bodies stream both ways (the proxy pipes them); two timeouts
 * keep the panel responsive: connecting (an unreachable node → ErrNodeOffline within `connectMs`) and the
 * wait for response headers (a node that accepts but does not answer → ErrNodeTimeout). The node's link mode
 * decides the scheme and how the daemon's certificate is verified (node-tls.ts; docs/security.md § Node link).
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { AppError, isAppError, isErrorCode, type ErrorMetadata } from '@hearth/contract';
import type { Agent } from 'node:http';
import { tlsFailure, tlsOptionsOf, type NodeTls } from './node-tls';

export interface NodeAddress {
  id: string;
  name: string;
  host: string;
  port: number;
  tls: NodeTls;
  /**
   * `outbound`: the node dials the panel and every call goes through its tunnel (node-tunnels.ts); host and
   * port then only name the daemon inside it (the Host header, the TLS name). Absent means `inbound`.
   */
  link?: 'inbound' | 'outbound';
}

export interface DaemonCall {
  method: string;
  path: string;
  token: string;
  headers?: OutgoingHttpHeaders;
  body?: Readable | string | Buffer;
  /** Overall wait for the response headers (default `timeouts.responseMs`); `?wait=true` actions raise it. */
  responseMs?: number;
}

export interface LinkTimeouts {
  connectMs: number;
  responseMs: number;
  /** How often a proxied socket re-reads access and swaps in a fresh daemon token (tokens live 60 s). */
  socketRefreshMs: number;
}

export const defaultLinkTimeouts: LinkTimeouts = {
  connectMs: 3_000,
  responseMs: 15_000,
  socketRefreshMs: 45_000,
};

const OFFLINE_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** A failed call or socket handshake as a catalogued error: certificate, offline or timeout. */
export function linkError(node: NodeAddress, err: unknown, phase: 'connect' | 'response'): AppError {
  // Already catalogued: an outbound node with no tunnel connected (node-tunnels.ts).
  if (isAppError(err)) return err;
  // The outbound tunnel dropped under the call (link-mux): the node may be fine, its link is not.
  if ((err as { code?: string }).code === 'ELINKLOST')
    return new AppError('ErrNodeLinkLost', { node: node.name }, { cause: err });
  const tls = tlsFailure(node.tls, err);
  if (tls) return new AppError('ErrNodeCertificate', { node: node.name, reason: tls }, { cause: err });
  const code = (err as { code?: string }).code ?? '';
  if (phase === 'connect' || OFFLINE_CODES.has(code) || code === 'ECONNRESET') {
    return new AppError('ErrNodeOffline', { node: node.name }, { cause: err });
  }
  return new AppError('ErrNodeTimeout', { node: node.name }, { cause: err });
}

/** Sends one request; resolves with the (unread) response, whatever its status. */
export function callDaemon(
  node: NodeAddress,
  call: DaemonCall,
  timeouts: LinkTimeouts = defaultLinkTimeouts,
  /** The node's keep-alive pool (daemon-agents.ts); Node's global agent when absent. */
  agent?: Agent,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options = {
      host: node.host,
      port: node.port,
      method: call.method,
      path: call.path,
      headers: { ...call.headers, authorization: `Bearer ${call.token}` },
      agent,
    };
    const tls = tlsOptionsOf(node.tls);
    const req = tls ? httpsRequest({ ...options, ...tls }) : httpRequest(options);
    let phase: 'connect' | 'response' = 'connect';
    let timer: NodeJS.Timeout | undefined;
    const fail = (err: AppError) => {
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const awaitResponse = () => {
      phase = 'response';
      clearTimeout(timer);
      const ms = call.responseMs ?? timeouts.responseMs;
      timer = setTimeout(() => fail(linkError(node, new Error('response timeout'), 'response')), ms);
    };
    // The connect timeout only concerns a new socket: a pooled keep-alive socket is already connected and
    // never emits `connect`, so its request goes straight to the response wait.
    req.once('socket', (socket) => {
      if (!socket.connecting) return awaitResponse();
      timer = setTimeout(
        () => fail(linkError(node, new Error('connect timeout'), 'connect')),
        timeouts.connectMs,
      );
      socket.once('connect', awaitResponse);
    });
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (err) => fail(linkError(node, err, phase)));
    if (call.body === undefined) req.end();
    else if (typeof call.body === 'string' || Buffer.isBuffer(call.body)) req.end(call.body);
    else {
      const body = call.body;
      // A caller gone mid-body (a browser closed, a proxy cut): the daemon's request ends too, instead of
      // waiting for bytes that never come until the response timeout (pipe() does not pass that on).
      body.once('close', () => {
        if (!body.readableEnded) req.destroy();
      });
      body.pipe(req);
    }
  });
}

export async function readBody(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A daemon error body becomes the same catalogued error in the panel (code, metadata and status). */
export function daemonError(status: number, text: string): AppError {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; metadata?: ErrorMetadata } };
    const code = parsed.error?.code;
    if (isErrorCode(code)) return new AppError(code, parsed.error?.metadata, { status });
  } catch (err) {
    return new AppError('ErrGeneric', { status }, { cause: err });
  }
  return new AppError('ErrGeneric', { status });
}

/** A call whose JSON answer the panel itself needs (create, delete, status for lists). */
export async function callDaemonJson<T>(
  node: NodeAddress,
  call: DaemonCall,
  timeouts?: LinkTimeouts,
  agent?: Agent,
) {
  // Fastify refuses an empty body declared as JSON: the type is only sent with a body.
  const headers =
    call.body === undefined ? call.headers : { 'content-type': 'application/json', ...call.headers };
  const res = await callDaemon(node, { ...call, headers }, timeouts, agent);
  const text = await readBody(res);
  const status = res.statusCode ?? 500;
  if (status >= 400) throw daemonError(status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}
