import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '@hearth/contract';
import { isDatabaseUnavailable } from '../db/errors';

function fromFastifyError(err: FastifyError, bodyLimit: number): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('ErrInvalidJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('ErrPayloadTooLarge', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('ErrUnsupportedMediaType', { contentType: 'the content type' });
    default:
      break;
  }
  // Prototype-poisoning and other JSON parser refusals carry a 400 SyntaxError.
  if (err instanceof SyntaxError && err.statusCode === 400) return new AppError('ErrInvalidJson');
  if (err.statusCode === 413) return new AppError('ErrPayloadTooLarge', { limit: bodyLimit });
  if (err.statusCode === 415)
    return new AppError('ErrUnsupportedMediaType', { contentType: 'the content type' });
  if (err.statusCode === 404) return new AppError('ErrNotFound');
  if (err.statusCode === 403) return new AppError('ErrNoPermission'); // e.g. a static folder without index
  if (err.statusCode === 405) return new AppError('ErrMethodNotAllowed');
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError('ErrFieldInvalid', { field: 'request' }, { status: err.statusCode });
  }
  return undefined;
}

/** The one error handler: catalogued errors as they are; everything else logged and answered without internals. */
export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(err)) {
      const retryAfter = err.metadata?.retryAfter;
      if (err.code === 'ErrRateLimited' && typeof retryAfter === 'number')
        reply.header('Retry-After', retryAfter);
      return reply.status(err.status).send(err.toBody());
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database not available');
      return reply.status(503).send(new AppError('ErrDatabaseNotAvailable').toBody());
    }
    const mapped = fromFastifyError(err, bodyLimit);
    if (mapped) return reply.status(mapped.status).send(mapped.toBody());
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(new AppError('ErrGeneric').toBody());
  });
}
