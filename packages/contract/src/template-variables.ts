/**
 * Typed template variables: checking a value against its declared type (SPEC §3 Template variable).
 * Integers may arrive as numeric strings and booleans as "true"/"false" (HTML forms, PufferPanel templates);
 * anything else of the wrong type is refused by name.
 */
import type { Variable } from './template';

export type VariableValue = string | number | boolean;
export type VariableCheck = { ok: true; value: VariableValue } | { ok: false };

function asInteger(value: unknown): VariableCheck {
  if (typeof value === 'number' && Number.isInteger(value)) return { ok: true, value };
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim()))
    return { ok: true, value: Number(value.trim()) };
  return { ok: false };
}

function asBoolean(value: unknown): VariableCheck {
  if (typeof value === 'boolean') return { ok: true, value };
  if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
  return { ok: false };
}

function asOption(variable: Pick<Variable, 'options'>, value: unknown): VariableCheck {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return { ok: false };
  const options = variable.options ?? [];
  if (options.length > 0 && !options.some((o) => o.value === value)) return { ok: false };
  return { ok: true, value };
}

/** Checks `value` against the variable's type; `null`/missing means the empty value of that type. */
export function checkVariableValue(
  variable: Pick<Variable, 'type' | 'options'>,
  value: unknown,
): VariableCheck {
  if (value === undefined || value === null) {
    return { ok: true, value: variable.type === 'integer' ? 0 : variable.type === 'boolean' ? false : '' };
  }
  switch (variable.type) {
    case 'integer':
      return asInteger(value);
    case 'boolean':
      return asBoolean(value);
    case 'option':
      return asOption(variable, value);
    case 'string':
      return typeof value === 'string' || typeof value === 'number'
        ? { ok: true, value: String(value) }
        : { ok: false };
  }
}
