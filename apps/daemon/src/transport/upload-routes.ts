/**
 * Resumable uploads over HTTP: the tus 1.0 core protocol with its creation and termination extensions
 * (docs/files.md § Resumable uploads, docs/adr/0014-tus-uploads.md), one handler per row of the contract's
 * upload-routes.ts, all needing putServerFiles. The state and the sandboxed move into place are the store's
 * (uploads/tus-store.ts); here are only the headers of the protocol. A chunk's body is read here as a stream.
 */
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import { TUS_VERSION } from '@hearth/contract/upload-routes';
import { TusUploads, UPLOADS_FOLDER } from '../uploads/tus-store';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

const CHUNK_TYPE = 'application/offset+octet-stream';
const EXTENSIONS = 'creation,termination';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A non-negative integer header (`Upload-Length`, `Upload-Offset`). */
function byteCount(request: FastifyRequest, name: string): number {
  const text = header(request, name.toLowerCase());
  if (text === undefined) throw new AppError('ErrFieldRequired', { field: name });
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw new AppError('ErrFieldInvalid', { field: name });
  return value;
}

/** `Upload-Metadata`: comma-separated `key base64value` pairs (a key may come without a value). */
export function parseMetadata(text: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const item of (text ?? '').split(',')) {
    const [key, value = '', ...rest] = item.trim().split(' ');
    if (!key) continue;
    if (rest.length > 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value))
      throw new AppError('ErrFieldInvalid', { field: 'Upload-Metadata' });
    pairs.set(key, Buffer.from(value, 'base64').toString('utf8'));
  }
  return pairs;
}

/** Every tus request names the protocol version it speaks (OPTIONS excepted, which is not served). */
function checkVersion(request: FastifyRequest): void {
  const version = header(request, 'tus-resumable');
  if (version !== TUS_VERSION) throw new AppError('ErrTusVersion', { version: version ?? '' });
}

export function uploadRoutes(app: FastifyInstance, ctx: TransportContext): TusUploads {
  const { files, serversDir } = ctx.config;
  const uploads = new TusUploads(join(resolve(serversDir ?? ''), UPLOADS_FOLDER), {
    maxBytes: files.maxUploadBytes,
    quotaBytes: files.uploadQuotaBytes,
    expiryMs: files.uploadExpiryMs,
  });
  const sandboxOf = (id: string) => ctx.manager.get(id).sandbox;
  void app.register(async (scope) => {
    // A chunk is read by its handler as a stream; the JSON body limit does not apply to it.
    scope.addContentTypeParser(CHUNK_TYPE, (_request, _payload, done) => done(null));
    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('tus-resumable', TUS_VERSION).header('cache-control', 'no-store');
    });
    daemonRoute(scope, ctx, 'uploadCreate', async (request, reply, { id }) => {
      checkVersion(request);
      const length = byteCount(request, 'Upload-Length');
      const path = parseMetadata(header(request, 'upload-metadata')).get('path');
      if (!path) throw new AppError('ErrFieldRequired', { field: 'path' });
      const upload = await uploads.create(id, sandboxOf(id), length, path);
      // Relative: it resolves against the URL the client used, the panel's proxy path as well as the daemon's.
      reply.header('location', `upload/${upload}`).header('tus-extension', EXTENSIONS);
      if (length === 0) await uploads.append(id, sandboxOf(id), upload, 0, []);
      return reply.status(201).send();
    });
    daemonRoute(scope, ctx, 'uploadOffset', async (request, reply, { id }) => {
      checkVersion(request);
      const state = await uploads.offset(id, request.params.upload);
      reply.header('upload-offset', state.offset).header('upload-length', state.length);
      return reply.status(200).send();
    });
    daemonRoute(scope, ctx, 'uploadPatch', async (request, reply, { id }) => {
      checkVersion(request);
      if (request.headers['content-type'] !== CHUNK_TYPE)
        throw new AppError('ErrUnsupportedMediaType', { contentType: header(request, 'content-type') ?? '' });
      const offset = byteCount(request, 'Upload-Offset');
      const { upload } = request.params;
      const cut = () => request.raw.destroy();
      const end = await uploads.append(id, sandboxOf(id), upload, offset, request.raw, cut);
      reply.header('upload-offset', end);
      return reply.status(204).send();
    });
    daemonRoute(scope, ctx, 'uploadDelete', async (request, reply, { id }) => {
      checkVersion(request);
      await uploads.terminate(id, request.params.upload);
      return reply.status(204).send();
    });
  });
  sweepExpired(app, ctx, uploads);
  return uploads;
}

/** Expired uploads (and those of deleted servers) are removed a few times per expiry period. */
function sweepExpired(app: FastifyInstance, ctx: TransportContext, uploads: TusUploads): void {
  const every = Math.max(1_000, Math.min(ctx.config.files.uploadExpiryMs / 4, 10 * 60_000));
  const exists = (server: string) => ctx.manager.list().some((s) => s.id === server);
  const timer = setInterval(() => {
    uploads.sweep(exists).catch((err: unknown) => app.log.warn({ err }, 'sweeping expired uploads failed'));
  }, every);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
