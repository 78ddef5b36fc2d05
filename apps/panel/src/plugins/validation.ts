import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '@hearth/contract';
import { bodyShapeError } from '@hearth/contract/body-shape';
import { checkPart } from '@hearth/contract/zod-issues';

// The zod issue → catalogued error mapping is the contract's, shared with the daemon's validation.
export { issueToAppError } from '@hearth/contract/zod-issues';

/**
 * Path of the first string holding a NUL byte (PostgreSQL cannot store it; no field needs it). Iterative, and the
 * path is built only for the hit: JSON bodies are already within the shape budget (registerJsonBodyBudget), but
 * this also sees query strings and params, and a recursive walk copying its path per level cost O(depth²).
 */
function findNul(root: unknown): string[] | undefined {
  interface Frame {
    value: unknown;
    key: string;
    parent: Frame | null;
  }
  const stack: Frame[] = [{ value: root, key: '', parent: null }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value } = frame;
    if (typeof value === 'string') {
      if (!value.includes('\u0000')) continue;
      const path: string[] = [];
      for (let at: Frame | null = frame; at?.parent; at = at.parent) path.unshift(at.key);
      return path;
    }
    if (typeof value !== 'object' || value === null) continue;
    // Pushed in reverse so the first key in document order is reported first.
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, inner] = entries[i] as [string, unknown];
      stack.push({ value: inner, key, parent: frame });
    }
  }
  return undefined;
}

/**
 * JSON bodies are parsed by Fastify's own parser (same prototype-poisoning rules), then held to the shape budget
 * (depth and value count, @hearth/contract/body-shape) before validation, rate limits or any handler walk them:
 * too deep or too many values → 400 ErrBodyTooComplex.
 */
export function registerJsonBodyBudget(app: FastifyInstance): void {
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

/**
 * Fastify validator for zod schemas: a failure becomes the AppError of its first issue, so the one error
 * handler answers it like any other catalogued error (400 with `metadata.field`).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const nul = findNul(data);
    if (nul)
      return {
        error: new AppError('ErrFieldMustBePrintable', { field: nul.join('.') || (httpPart ?? 'body') }),
      };
    return checkPart(schema, data, httpPart ?? 'body');
  };

/**
 * The panel's compilers as factories for Fastify's `schemaController` option: given at construction, they keep
 * Fastify from loading its own (Ajv and fast-json-stringify), which the panel never uses (docs/performance.md
 * § Start-up).
 */
export const panelSchemaController = {
  compilersFactory: { buildValidator: () => zodValidatorCompiler, buildSerializer: () => serializerCompiler },
  // Fastify types the factories after Ajv's and fast-json-stringify's own; these return what Fastify calls.
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;
