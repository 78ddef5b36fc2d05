/**
 * Files over HTTP (docs/files.md): listing or download, streamed multipart upload, create folder, delete,
 * archive and extract, move (rename), copy, chmod and search by name. Reading needs viewServerFiles; every
 * change needs putServerFiles (admins hold both); console permissions never play a part. Every path goes
 * through the server's sandbox. Path, query and JSON bodies arrive parsed by the rows' schemas; an upload's body
 * is read here as a stream.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import { createZip } from '../filesystem/archive/create-zip';
import { extractArchive } from '../filesystem/archive/extract';
import { extractOptionsOf } from '../filesystem/archive/extract-options';
import { canonical, listFolder } from '../filesystem/listing';
import type { Sandbox } from '../filesystem/sandbox';
import { defaultSearchBounds } from '../filesystem/search';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A folder's listing, or the file's bytes as a stream (its headers set here). */
async function getFile(sandbox: Sandbox, path: string, reply: FastifyReply) {
  const stats = await sandbox.lstat(path);
  if (stats.isDirectory()) return listFolder(sandbox, path);
  const handle = await sandbox.open(path);
  const size = (await handle.stat()).size;
  reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', size)
    .header('content-disposition', contentDisposition(canonical(path).split('/').at(-1) ?? 'file'));
  return handle.createReadStream();
}

/** The multipart field `file`, streamed into place atomically (the body is never buffered or parsed whole). */
async function putFile(ctx: TransportContext, request: FastifyRequest, sandbox: Sandbox, path: string) {
  const part = await request.file();
  if (!part || part.fieldname !== 'file') throw new AppError('ErrFieldRequired', { field: 'file' });
  await sandbox.writeStreamAtomic(path, part.file, () => {
    if (part.file.truncated)
      throw new AppError('ErrFileTooLarge', { limit: ctx.config.files.maxUploadBytes });
  });
}

export function fileRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const sandboxOf = (id: string) => ctx.manager.get(id).sandbox;
  const extractOptions = () => extractOptionsOf(ctx.config);
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ctx.config.files.maxUploadBytes, files: 1 } });
    // `…/file` (the root) and `…/file/*` are two rows each with one handler; the root's path is ''.
    for (const key of ['fileRootGet', 'fileGet'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) =>
        getFile(sandboxOf(id), request.params['*'], reply),
      );
    }
    for (const key of ['fileRootPut', 'filePut'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) => {
        const sandbox = sandboxOf(id);
        const path = request.params['*'];
        if (request.query.folder) await sandbox.mkdirp(path);
        else await putFile(ctx, request, sandbox, path);
        return reply.status(204).send();
      });
    }
    for (const key of ['fileRootDelete', 'fileDelete'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) => {
        await sandboxOf(id).remove(request.params['*']);
        return reply.status(204).send();
      });
    }
    daemonRoute(scope, ctx, 'archive', async (request, _reply, { id }) => {
      return { path: await createZip(sandboxOf(id), request.params['*'], request.body) };
    });
    daemonRoute(scope, ctx, 'fileMove', async (request, reply, { id }) => {
      const { from, to, overwrite } = request.body;
      await sandboxOf(id).rename(from, to, { overwrite, replaceFolders: true });
      return reply.status(204).send();
    });
    daemonRoute(scope, ctx, 'fileCopy', async (request, _reply, { id }) => {
      const { from, to, overwrite } = request.body;
      const { maxExtractEntries: maxEntries, maxExtractBytes: maxBytes } = ctx.config.files;
      return sandboxOf(id).copy(from, to, { overwrite, limits: { maxEntries, maxBytes } });
    });
    daemonRoute(scope, ctx, 'fileChmod', async (request, reply, { id }) => {
      await sandboxOf(id).chmod(request.body.path, request.body.mode);
      return reply.status(204).send();
    });
    daemonRoute(scope, ctx, 'fileSearch', async (request, _reply, { id }) => {
      const { q, path, limit } = request.query;
      return sandboxOf(id).search(path, q, defaultSearchBounds(limit));
    });
    daemonRoute(scope, ctx, 'extract', async (request, _reply, { id }) => {
      const archive = request.params['*'];
      const target = request.query.destination || canonical(archive).split('/').slice(0, -1).join('/');
      return extractArchive(sandboxOf(id), archive, target, extractOptions());
    });
  });
}
