/**
 * Moving a server between nodes (docs/operations.md § Moving a server between nodes, ADR 0016): the panel's
 * `POST /api/servers/{id}/transfer` body, the transfer's state as `GET /api/servers/{id}/transfer` shows it, and the
 * two socket events the panel injects into the server's open sockets while it runs. On their own (no import of
 * daemon.ts) so daemon.ts can list the events without a cycle.
 */
import { z } from 'zod';

export const serverTransferBodySchema = z.strictObject({
  /** The target node's id. */
  node: z.string().min(1).max(64),
});
export type ServerTransferBody = z.infer<typeof serverTransferBodySchema>;

export const transferPhases = [
  'stopping',
  'preparing',
  'copying',
  'verifying',
  'switching',
  'starting',
  'done',
  'failed',
] as const;
export const transferPhaseSchema = z.enum(transferPhases);
export type TransferPhase = z.infer<typeof transferPhaseSchema>;

export const transferErrorSchema = z.object({
  code: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type TransferError = z.infer<typeof transferErrorSchema>;

export const transferStateSchema = z.object({
  /** The transfer's own id (the daemons' staging is named by the server's id). */
  id: z.string(),
  server: z.string(),
  from: z.string(),
  to: z.string(),
  phase: transferPhaseSchema,
  /** Bytes of the server's archive copied so far, and its size as the source node announced it. */
  bytes: z.number().nonnegative(),
  total: z.number().nonnegative(),
  /** Files in the archive (known once the source node has started the export; 0 before). */
  files: z.number().nonnegative(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** A catalogued error (docs/errors.md) when the phase is `failed`. */
  error: transferErrorSchema.nullable(),
  /** Whether the server was running before the move; it is started again (on B, or on A after a failure). */
  wasRunning: z.boolean(),
  /**
   * Set when the server is safely on the target but its folder could not be deleted from the source node
   * (the node was down at that moment): an administrator removes it by hand. The server is not listed there.
   */
  leftover: z.string().nullable().default(null),
});
export type TransferState = z.infer<typeof transferStateSchema>;

export const transferProgressDataSchema = z.object({
  phase: transferPhaseSchema,
  bytes: z.number().nonnegative(),
  total: z.number().nonnegative(),
});
export type TransferProgressData = z.infer<typeof transferProgressDataSchema>;

export const transferDoneDataSchema = z.object({
  ok: z.boolean(),
  /** Where the server is now: the target on success, the source node after a failure. */
  node: z.string(),
  error: transferErrorSchema.optional(),
});
export type TransferDoneData = z.infer<typeof transferDoneDataSchema>;

export const transferProgressEventSchema = z.object({
  type: z.literal('transfer-progress'),
  data: transferProgressDataSchema,
});
export type TransferProgressEvent = z.infer<typeof transferProgressEventSchema>;
export const transferDoneEventSchema = z.object({
  type: z.literal('transfer-done'),
  data: transferDoneDataSchema,
});
export type TransferDoneEvent = z.infer<typeof transferDoneEventSchema>;
