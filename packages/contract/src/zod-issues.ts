/**
 * Zod issues → catalogued errors, shared by the panel's and the daemon's request validation (each app's one error
 * handler then answers them like any AppError: docs/errors.md). Pure: no Fastify, no I/O.
 */
import type { z } from 'zod';
import { AppError, isErrorCode, type ErrorCode, type ErrorMetadata } from './errors';

type Issue = z.core.$ZodIssue;

/**
 * What a whole request part answers when it is invalid, where that is one code rather than the issue's own
 * (a definition is `ErrInvalidDefinition` whatever field is wrong). A custom issue naming its own catalogued
 * code (`params.code`) still wins.
 */
export interface Refusal {
  readonly code: ErrorCode;
  /** The field named when the issue is about the part as a whole (an empty path). */
  readonly field?: string;
  /** Codes for issues under a top-level field (a task's `cronSchedule` is `ErrInvalidCron`). */
  readonly byField?: Readonly<Record<string, ErrorCode>>;
}

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

/** The catalogued code a custom issue names for itself (`refine(…, { params: { code } })`), if any. */
function ownCode(issue: Issue): ErrorCode | undefined {
  const code: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  return isErrorCode(code) ? code : undefined;
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
      const meta: ErrorMetadata = { field };
      if (issue.params?.code === 'ErrUnknownSetting' && typeof issue.input === 'string')
        meta.key = issue.input.slice(0, 100);
      return new AppError(ownCode(issue) ?? 'ErrFieldInvalid', meta);
    }
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'not_multiple_of':
      return new AppError('ErrFieldInvalid', { field });
  }
}

/** The part's refusal for `issue`: its own custom code, else the refusal's code, naming the field and why. */
function refusalError(issue: Issue, refusal: Refusal): AppError {
  const path = issue.path.map(String).join('.');
  const top = issue.path[0];
  const code =
    ownCode(issue) ?? (typeof top === 'string' ? refusal.byField?.[top] : undefined) ?? refusal.code;
  const field = path || refusal.field || 'body';
  return new AppError(code, { field, reason: path ? `${path}: ${issue.message}` : issue.message });
}

/**
 * Checks one request part against its schema: the parsed value (transforms applied), or the catalogued error of
 * the first issue — the part's `refusal` when it has one, else the issue's own mapping.
 */
export function checkPart<S extends z.ZodType>(
  schema: S,
  data: unknown,
  /** The request part in Fastify's names (`body`, `params`, `querystring`, `headers`). */
  part = 'body',
  refusal?: Refusal,
): { value: z.output<S> } | { error: AppError } {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return { value: result.data };
  const first = result.error.issues[0];
  if (!first) return { error: new AppError(refusal?.code ?? 'ErrFieldInvalid') };
  return { error: refusal ? refusalError(first, refusal) : issueToAppError(first, part) };
}
