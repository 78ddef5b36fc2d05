/**
 * The daemon's rows for moving a server between nodes (daemon-routes.ts spreads them into `daemonRoutes`;
 * docs/daemon.md § Transfer). The panel drives them itself with its own node-admin token (need `'panel'`: no
 * user's token, an administrator's included) and proxies none of them: it stops the server on node A, prepares
 * node B, streams A's export into B's import through itself (so a node that dials out works too), commits B
 * with the checksum A sent as a trailer, and aborts B on any failure.
 */
import { z } from 'zod';
import type { DaemonRouteRow } from './daemon-routes';
import { serverParamsSchema } from './daemon-params';
import { fileBytesSchema } from './files';
import { templateSchema } from './template';

/** Response headers of the export: file contents' total and file count (for progress). */
export const TRANSFER_BYTES_HEADER = 'x-hearth-transfer-bytes';
export const TRANSFER_FILES_HEADER = 'x-hearth-transfer-files';
/** The export's HTTP trailer: SHA-256 (hex) of the exact tar bytes sent. */
export const TRANSFER_SHA256_TRAILER = 'x-hearth-transfer-sha256';
/** The export's media type: an uncompressed tar stream (the import takes any type, read as raw bytes). */
export const TRANSFER_MEDIA_TYPE = 'application/x-tar';

export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');

/** `POST /daemon/transfer/:id/prepare`: the definition as the create route takes it, and the bytes to come. */
export const transferPrepareBodySchema = z.strictObject({
  definition: templateSchema,
  bytes: z.number().int().nonnegative(),
});
export type TransferPrepareBody = z.infer<typeof transferPrepareBodySchema>;

/** What the import received: file contents' total, files, and the SHA-256 of the exact bytes received. */
export const transferDataReportSchema = z.object({
  bytes: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  sha256: sha256HexSchema,
});
export type TransferDataReport = z.infer<typeof transferDataReportSchema>;

export const transferCommitBodySchema = z.strictObject({ sha256: sha256HexSchema });
export type TransferCommitBody = z.infer<typeof transferCommitBodySchema>;

const none = { params: undefined, query: undefined, body: undefined, response: undefined } as const;
const onServer = { ...none, params: serverParamsSchema } as const;
const empty = z.undefined();

export const transferRoutes = {
  transferExport: {
    method: 'GET',
    path: '/daemon/server/:id/transfer/export',
    need: 'panel',
    note:
      'An uncompressed tar of the stopped server’s folder; `x-hearth-transfer-bytes` and `-files` headers, ' +
      'the SHA-256 of the bytes sent as the trailer `x-hearth-transfer-sha256`. The server cannot start meanwhile.',
    schemas: {
      ...onServer,
      response: { 200: { content: { [TRANSFER_MEDIA_TYPE]: { schema: fileBytesSchema } } } },
    },
  },
  transferPrepare: {
    method: 'POST',
    path: '/daemon/transfer/:id/prepare',
    need: 'panel',
    note: 'Checks the id is free, the definition valid and the free space; makes the staging folder.',
    schemas: {
      ...onServer,
      body: transferPrepareBodySchema,
      response: { 204: empty },
      refusals: {
        body: { code: 'ErrFieldInvalid', field: 'body', byField: { definition: 'ErrInvalidDefinition' } },
      },
    },
  },
  transferData: {
    method: 'PUT',
    path: '/daemon/transfer/:id/data',
    need: 'panel',
    note: 'The export’s tar stream, read raw and extracted into the staging folder with the server’s owner.',
    schemas: { ...onServer, response: { 200: transferDataReportSchema } },
  },
  transferCommit: {
    method: 'POST',
    path: '/daemon/transfer/:id/commit',
    need: 'panel',
    note: 'Compares the checksum, registers the server stopped and installed, renames the copy into place.',
    schemas: { ...onServer, body: transferCommitBodySchema, response: { 200: z.object({}) } },
  },
  transferAbort: {
    method: 'DELETE',
    path: '/daemon/transfer/:id',
    need: 'panel',
    note: 'Removes the staging folder; nothing there is not an error.',
    schemas: { ...onServer, response: { 204: empty } },
  },
} as const satisfies Record<string, DaemonRouteRow>;
