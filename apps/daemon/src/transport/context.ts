import type { FastifyRequest } from 'fastify';
import { AppError, serverIdSchema, type DaemonTokenClaims } from '@hearth/contract';
import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import { bearerOf, type TokenVerifier } from './token';
import { authorize, type Requirement } from './permissions';

export interface TransportContext {
  manager: ServerManager;
  verifier: TokenVerifier;
  config: DaemonConfig;
}

/** The `:id` path parameter, checked (an id can never smuggle a path). */
export function serverIdOf(request: FastifyRequest): string {
  const parsed = serverIdSchema.safeParse((request.params as { id?: unknown }).id);
  if (!parsed.success) throw new AppError('ErrServerNotFound');
  return parsed.data;
}

/** Verifies the bearer token and the permission for the `:id` server; returns the claims and the id. */
export async function guard(
  ctx: TransportContext,
  request: FastifyRequest,
  need: Requirement | Requirement[],
): Promise<{ claims: DaemonTokenClaims; id: string }> {
  const claims = await ctx.verifier.verify(bearerOf(request.headers.authorization));
  const id = serverIdOf(request);
  authorize(claims, id, need);
  return { claims, id };
}

/** `?wait=true|false`: the value decides, not the presence (PufferPanel blocked on `wait=false`). */
export function wantsWait(request: FastifyRequest): boolean {
  const raw = (request.query as { wait?: unknown }).wait;
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0' || raw === '') return false;
  throw new AppError('ErrFieldInvalid', { field: 'wait' });
}
