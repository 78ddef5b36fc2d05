/**
 * The daemon's rows for moving a server between nodes (daemon-routes.ts spreads them into `daemonRoutes`;
 * docs/daemon.md § Transfer). The panel drives them itself with its own node-admin token (need `'panel'`: no
 * user's token, an administrator's included) and proxies none of them: it stops the server on node A, prepares
 * node B, streams A's export into B's import through itself (so a node that dials out works too), commits B
 * with the checksum A sent as a trailer, and aborts B on any failure.
 */
import { z } from 'zod';
import type { DaemonRouteRow } from './daemon-routes';
import { serverIdSchema } from './daemon';
import { fileBytesSchema } from './files';
import { storedTaskOperationSchema, taskIdSchema, taskLastRunSchema } from './tasks';
import { templateSchema } from './template';

/** Response headers of the export: file contents' total and file count (for progress). */
export const TRANSFER_BYTES_HEADER = 'x-hearth-transfer-bytes';
export const TRANSFER_FILES_HEADER = 'x-hearth-transfer-files';
/** The export's HTTP trailer: SHA-256 (hex) of the exact tar bytes sent. */
export const TRANSFER_SHA256_TRAILER = 'x-hearth-transfer-sha256';
/** The export's media type: an uncompressed tar stream (the import takes any type, read as raw bytes). */
export const TRANSFER_MEDIA_TYPE = 'application/x-tar';

export const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
export type Sha256Hex = z.infer<typeof sha256HexSchema>;

/**
 * A task as its node keeps it: with its owner (whose access its steps run with) and its last run. Operations in
 * their stored shape (the input schema's normalising transform cannot check a response); B checks each task
 * again when it loads them, as it does its own file.
 */
export const transferTaskSchema = z.object({
  name: z.string(),
  cronSchedule: z.string().nullable(),
  operations: z.array(storedTaskOperationSchema),
  owner: z.string().min(1).nullable(),
  lastRun: taskLastRunSchema.nullable(),
});
export type TransferTask = z.infer<typeof transferTaskSchema>;

/**
 * What moves with a server besides its definition and files: the node's own marks, which no definition may
 * carry (a definition is written by whoever may save one) — whether an administrator wrote the definition
 * (it gates Docker bindings) and the tasks with their owners. The panel reads them from A with its own token
 * (`transferCarry`) and hands them to B in `prepare`; without them B would widen a user-written definition
 * to an administrator's, or keep tasks that no longer run.
 */
export const transferCarrySchema = z.object({
  adminEdited: z.boolean(),
  tasks: z.record(taskIdSchema, transferTaskSchema),
});
export type TransferCarry = z.infer<typeof transferCarrySchema>;

/**
 * `POST /daemon/transfer/:id/prepare`: the definition as the create route takes it, the bytes to come, and A's
 * marks (absent: a definition no administrator wrote, and no tasks).
 */
export const transferPrepareBodySchema = z.strictObject({
  definition: templateSchema,
  bytes: z.number().int().nonnegative(),
  carry: transferCarrySchema.optional(),
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
/**
 * `/daemon/transfer/:server…`: the server a transfer moves, named as `:server`, not `:id`, because these are the
 * panel's node-wide calls (need `'panel'`), not a server's routes — the server may not exist on this node yet,
 * and no token's server claim is checked against it (contract daemon-routes.ts `isServerRoute`).
 */
export const transferParamsSchema = z.object({
  server: z.string().refine((value) => serverIdSchema.safeParse(value).success, {
    message: 'no such server',
    params: { code: 'ErrServerNotFound' },
  }),
});
export type TransferParams = z.infer<typeof transferParamsSchema>;

const onServer = { ...none, params: transferParamsSchema } as const;
const empty = z.undefined();

export const transferRoutes = {
  transferExport: {
    method: 'GET',
    path: '/daemon/transfer/:server/export',
    need: 'panel',
    note:
      'An uncompressed tar of the stopped server’s folder; `x-hearth-transfer-bytes` and `-files` headers, ' +
      'the SHA-256 of the bytes sent as the trailer `x-hearth-transfer-sha256`. The server cannot start meanwhile.',
    schemas: {
      ...onServer,
      response: { 200: { content: { [TRANSFER_MEDIA_TYPE]: { schema: fileBytesSchema } } } },
    },
  },
  transferCarry: {
    method: 'GET',
    path: '/daemon/transfer/:server/carry',
    need: 'panel',
    note: 'The node’s own marks of the server (administrator-written definition, tasks with owners) for `prepare`.',
    schemas: { ...onServer, response: { 200: transferCarrySchema } },
  },
  transferPrepare: {
    method: 'POST',
    path: '/daemon/transfer/:server/prepare',
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
    path: '/daemon/transfer/:server/data',
    need: 'panel',
    note: 'The export’s tar stream, read raw and extracted into the staging folder with the server’s owner.',
    schemas: { ...onServer, response: { 200: transferDataReportSchema } },
  },
  transferCommit: {
    method: 'POST',
    path: '/daemon/transfer/:server/commit',
    need: 'panel',
    note: 'Compares the checksum, registers the server stopped and installed, renames the copy into place.',
    schemas: { ...onServer, body: transferCommitBodySchema, response: { 200: z.object({}) } },
  },
  transferAbort: {
    method: 'DELETE',
    path: '/daemon/transfer/:server',
    need: 'panel',
    note: 'Removes the staging folder; nothing there is not an error.',
    schemas: { ...onServer, response: { 204: empty } },
  },
} as const satisfies Record<string, DaemonRouteRow>;
