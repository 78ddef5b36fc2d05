/**
 * The one error handler of the panel and the daemon (docs/errors.md): an AppError is answered with its
 * catalogued status and `{"error":{code,msg,metadata}}`; Fastify's own refusals (bad JSON, body too large,
 * wrong media type, unknown route or method) become their catalogued codes; anything else is logged with its
 * cause and answered as a generic 500, so nothing internal leaks.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '@hearth/contract';

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
  const status = err.statusCode;
  if (status === 413) return new AppError('ErrPayloadTooLarge', { limit: bodyLimit });
  if (status === 415) return new AppError('ErrUnsupportedMediaType', { contentType: 'the content type' });
  if (status === 404) return new AppError('ErrNotFound');
  if (status === 403) return new AppError('ErrNoPermission'); // e.g. a static folder without index
  if (status === 405) return new AppError('ErrMethodNotAllowed');
  if (status !== undefined && status >= 400 && status < 500) {
    return new AppError('ErrFieldInvalid', { field: 'request' }, { status });
  }
  return undefined;
}

/**
 * The catalogued error for `err`, or undefined when it is unexpected (a bug: log it, answer ErrGeneric).
 * `bodyLimit` is the limit in bytes that ErrPayloadTooLarge names.
 */
export function toAppError(err: unknown, bodyLimit: number): AppError | undefined {
  if (isAppError(err)) return err;
  if (err instanceof Error && ('code' in err || 'statusCode' in err)) {
    return fromFastifyError(err as FastifyError, bodyLimit);
  }
  return undefined;
}

export interface ErrorHandlerOptions {
  /** An app's own mapping, tried first (the panel: an unreachable database → ErrDatabaseNotAvailable). */
  classify?: (err: unknown, request: FastifyRequest) => AppError | undefined;
}

export function registerErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // The route's own limit when it sets one, else the server's (Fastify fills it in either way).
    const bodyLimit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
    const known = options.classify?.(err, request) ?? toAppError(err, bodyLimit);
    if (!known) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send(new AppError('ErrGeneric').toBody());
    }
    if (known.status >= 500) request.log.warn({ err }, known.message);
    const retryAfter = known.metadata?.retryAfter;
    if (known.code === 'ErrRateLimited' && typeof retryAfter === 'number')
      reply.header('Retry-After', retryAfter);
    return reply.status(known.status).send(known.toBody());
  });
}
