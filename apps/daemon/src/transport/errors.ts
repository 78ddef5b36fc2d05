/**
 * The daemon's error handling: the shared handler (docs/errors.md), and a catalogued 404 for unknown routes.
 */
import type { FastifyInstance } from 'fastify';
import { AppError, isAppError } from '@hearth/contract';
import { registerErrorHandler } from '@hearth/server-kit';

export function installErrorHandler(app: FastifyInstance): void {
  registerErrorHandler(app);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(new AppError('ErrNotFound').toBody()));
}

/** A socket handler's failure as the client sees it: catalogued errors as they are, anything else generic. */
export function socketError(err: unknown): AppError {
  return isAppError(err) ? err : new AppError('ErrGeneric');
}
