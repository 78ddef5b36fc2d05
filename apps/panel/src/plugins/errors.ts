import type { FastifyInstance } from 'fastify';
import { AppError } from '@hearth/contract';
import { registerErrorHandler } from '@hearth/server-kit';
import { isDatabaseUnavailable } from '../db/errors';

/** The shared error handler (docs/errors.md), plus the panel's own case: an unreachable database is a 503. */
export function registerPanelErrorHandler(app: FastifyInstance): void {
  registerErrorHandler(app, {
    classify: (err) =>
      isDatabaseUnavailable(err)
        ? new AppError('ErrDatabaseNotAvailable', undefined, { cause: err })
        : undefined,
  });
}
