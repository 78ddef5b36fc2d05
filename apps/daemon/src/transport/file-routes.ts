/**
 * Files over HTTP (SPEC §7 Files): listing or download, streamed multipart upload, create folder, delete,
 * archive and extract. Reading needs viewServerFiles; every change needs putServerFiles (admins hold both);
 * console permissions never play a part. Every path goes through the server's sandbox.
 */
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, archiveRequestSchema } from '@hearth/contract';
import { createZip } from '../filesystem/archive/create-zip';
import { extractArchive } from '../filesystem/archive/extract';
import { canonical, listFolder } from '../filesystem/listing';
import type { Sandbox } from '../filesystem/sandbox';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

const pathOf = (request: FastifyRequest) => (request.params as { '*'?: string })['*'] ?? '';

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function getFile(sandbox: Sandbox, path: string, reply: FastifyReply) {
  const stats = await sandbox.lstat(path);
  if (stats.isDirectory()) return listFolder(sandbox, path);
  const handle = await sandbox.open(path);
  const size = (await handle.stat()).size;
  reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', size)
    .header('content-disposition', contentDisposition(canonical(path).split('/').at(-1) ?? 'file'));
  return reply.send(handle.createReadStream());
}

async function putFile(ctx: TransportContext, request: FastifyRequest, sandbox: Sandbox, path: string) {
  const folder = (request.query as { folder?: string }).folder;
  if (folder === 'true' || folder === '1') return sandbox.mkdirp(path);
  const part = await request.file();
  if (!part || part.fieldname !== 'file') throw new AppError('ErrFieldRequired', { field: 'file' });
  await sandbox.writeStreamAtomic(path, part.file, () => {
    if (part.file.truncated)
      throw new AppError('ErrFileTooLarge', { limit: ctx.config.files.maxUploadBytes });
  });
}

export function fileRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const sandboxOf = (id: string) => ctx.manager.get(id).sandbox;
  const extractOptions = () => ({
    maxBytes: ctx.config.files.maxExtractBytes,
    maxEntries: ctx.config.files.maxExtractEntries,
    stagingDir: join(ctx.config.dataDir, 'tmp'),
  });
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ctx.config.files.maxUploadBytes, files: 1 } });
    // `…/file` (the root) and `…/file/*` are two rows each with one handler.
    for (const key of ['fileRootGet', 'fileGet'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) =>
        getFile(sandboxOf(id), pathOf(request), reply),
      );
    }
    for (const key of ['fileRootPut', 'filePut'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) => {
        await putFile(ctx, request, sandboxOf(id), pathOf(request));
        return reply.status(204).send();
      });
    }
    for (const key of ['fileRootDelete', 'fileDelete'] as const) {
      daemonRoute(scope, ctx, key, async (request, reply, { id }) => {
        await sandboxOf(id).remove(pathOf(request));
        return reply.status(204).send();
      });
    }
    daemonRoute(scope, ctx, 'archive', async (request, _reply, { id }) => {
      const parsed = archiveRequestSchema.safeParse(request.body);
      if (!parsed.success) throw new AppError('ErrFieldInvalid', { field: 'paths' });
      return { path: await createZip(sandboxOf(id), pathOf(request), parsed.data) };
    });
    daemonRoute(scope, ctx, 'extract', async (request, _reply, { id }) => {
      const destination = (request.query as { destination?: string }).destination ?? '';
      const archive = pathOf(request);
      const target = destination || canonical(archive).split('/').slice(0, -1).join('/');
      return extractArchive(sandboxOf(id), archive, target, extractOptions());
    });
  });
}
