/**
 * THE error handler of the daemon: AppError → its status and `{"error":{code,msg,metadata}}`; Fastify's own
 * errors (bad JSON, body too large, wrong media type, rate limit) → their catalogued codes; anything else is
 * logged with its cause and answered as a generic 500, so nothing internal leaks.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '@hearth/contract';

function fromFastify(err: FastifyError, bodyLimit: number): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('ErrInvalidJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('ErrPayloadTooLarge', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('ErrUnsupportedMediaType', { contentType: 'this' });
    default:
      if (err.statusCode === 429) return new AppError('ErrRateLimited', { retryAfter: 1 });
      if (err instanceof SyntaxError && err.statusCode === 400) return new AppError('ErrInvalidJson');
      return null;
  }
}

/** `bodyLimit`: the route's body limit in bytes, named in ErrPayloadTooLarge so the client can say it. */
export function toAppError(err: unknown, bodyLimit = 0): AppError | null {
  if (isAppError(err)) return err;
  if (err instanceof Error && 'code' in err) return fromFastify(err as FastifyError, bodyLimit);
  return null;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(err, request.routeOptions.bodyLimit);
    if (known) {
      if (known.status >= 500) request.log.error({ err }, known.message);
      return reply.status(known.status).send(known.toBody());
    }
    request.log.error({ err }, 'unexpected error');
    return reply.status(500).send(new AppError('ErrGeneric').toBody());
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(new AppError('ErrNotFound').toBody()));
}
