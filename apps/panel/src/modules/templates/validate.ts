import { AppError } from '@hearth/contract';
import type { z } from 'zod';

/** `["install", 2, "type"]` → `install[2].type`: the name shown to the user for a bad field. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    const name = String(key);
    return text === '' ? name : `${text}.${name}`;
  }, '');
}

/** The value at `path` inside `root`, or undefined when any step is missing. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Turns the first schema issue into the catalogue error naming the field, so the API answers 400 precisely.
 * Nested schemas re-raise issues as `custom`, so "missing" is judged from the input itself.
 */
export function issueToError(issue: z.core.$ZodIssue, input: unknown): AppError {
  const field = fieldPath(issue.path) || 'template';
  const missing = issue.code !== 'unrecognized_keys' && valueAt(input, issue.path) === undefined;
  if (missing && (issue.code === 'invalid_type' || issue.code === 'custom')) {
    return new AppError('ErrFieldRequired', { field });
  }
  if (issue.code === 'unrecognized_keys') {
    return new AppError('ErrFieldUnknown', { field: fieldPath([...issue.path, issue.keys[0] ?? '']) });
  }
  if (issue.code === 'invalid_value') {
    return new AppError('ErrFieldInvalidOption', { field, options: issue.values.map(String) });
  }
  return new AppError('ErrFieldInvalid', { field, reason: issue.message });
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * Validates with the contract's template schema. The schema is a parameter so the same code serves the
 * full template and narrower shapes (a server definition), and so tests can name what they validate.
 */
export function validateWith<S extends z.ZodType>(schema: S, value: unknown): ValidationResult<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const first = result.error.issues[0];
  const error = first ? issueToError(first, value) : new AppError('ErrInvalidJson');
  return { ok: false, error };
}

/** Throwing form for services: a bad template becomes a 400 naming the field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = validateWith(schema, value);
  if (!result.ok) throw result.error;
  return result.value;
}
