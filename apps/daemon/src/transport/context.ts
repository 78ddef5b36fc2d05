import type { FastifyRequest } from 'fastify';
import { AppError, serverIdSchema } from '@hearth/contract';
import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import type { TokenVerifier } from './token';

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

/** `?wait=true|false`: the value decides, not the presence (PufferPanel blocked on `wait=false`). */
export function wantsWait(request: FastifyRequest): boolean {
  const raw = (request.query as { wait?: unknown }).wait;
  if (raw === undefined) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0' || raw === '') return false;
  throw new AppError('ErrFieldInvalid', { field: 'wait' });
}
