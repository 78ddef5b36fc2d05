import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { AppError, isErrorCode, type ErrorMetadata } from '@hearth/contract';
import { bodyShapeError } from '@hearth/contract/body-shape';

type Issue = z.core.$ZodIssue;

function fieldOf(issue: Issue, part: string): string {
  const path = issue.path.map(String).join('.');
  return path || (part === 'body' ? 'body' : part);
}

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>, field: string): AppError {
  const min = Number(issue.minimum);
  if (issue.origin === 'string' && min <= 1) return new AppError('ErrFieldRequired', { field });
  if (issue.origin === 'string') return new AppError('ErrFieldLength', { field, min });
  return new AppError('ErrFieldTooSmall', { field, min });
}

/** One zod issue → one catalogued field error. Schemas may name their own code via `params.code`. */
export function issueToAppError(issue: Issue, part = 'body'): AppError {
  const field = fieldOf(issue, part);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? new AppError('ErrFieldRequired', { field })
        : new AppError('ErrFieldInvalid', { field });
    case 'too_small':
      return tooSmall(issue, field);
    case 'too_big':
      return new AppError('ErrFieldTooLarge', { field, max: Number(issue.maximum) });
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      return new AppError('ErrFieldUnknown', { field: issue.path.length ? `${field}.${key}` : key });
    }
    case 'invalid_format':
      return issue.format === 'email'
        ? new AppError('ErrFieldNotEmail', { field })
        : new AppError('ErrFieldInvalid', { field });
    case 'invalid_value':
      return new AppError('ErrFieldInvalidOption', { field, options: issue.values.map(String) });
    case 'custom': {
      const code: unknown = issue.params?.code;
      const meta: ErrorMetadata = { field };
      if (code === 'ErrUnknownSetting' && typeof issue.input === 'string')
        meta.key = issue.input.slice(0, 100);
      return isErrorCode(code) ? new AppError(code, meta) : new AppError('ErrFieldInvalid', meta);
    }
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'not_multiple_of':
      return new AppError('ErrFieldInvalid', { field });
  }
}

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
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    const first = result.error.issues[0];
    return { error: first ? issueToAppError(first, httpPart ?? 'body') : new AppError('ErrFieldInvalid') };
  };
