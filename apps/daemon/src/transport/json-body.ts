/**
 * JSON bodies are parsed by Fastify's own parser (same prototype-poisoning rules), then held to the shape budget
 * (depth and value count, @hearth/contract/body-shape) before any route reads them: a body nested thousands of
 * levels deep is refused with 400 ErrBodyTooComplex instead of costing every walker after it (docs/daemon.md).
 */
import type { FastifyInstance } from 'fastify';
import { bodyShapeError } from '@hearth/contract/body-shape';

export function installJsonBodyBudget(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    void parse(req, typeof body === 'string' ? body : body.toString('utf8'), (err, value) => {
      if (err) return done(err);
      const refusal = bodyShapeError(value);
      return refusal ? done(refusal) : done(null, value);
    });
  });
}
