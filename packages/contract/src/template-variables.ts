/**
 * Typed template variables: checking a value against its declared type and the
 * bounds that keep a value data, never code or layout (docs/daemon.md § Variables and commands).
 * Integers may arrive as numeric strings and booleans as "true"/"false" (HTML forms, PufferPanel templates);
 * anything else of the wrong type or outside its bounds is refused, with a reason for the error's metadata.
 */
import type { Variable } from './template';

export type VariableValue = string | number | boolean;
export type VariableCheck = { ok: true; value: VariableValue } | { ok: false; reason: string };

/** The widest integer a variable holds: a signed 32-bit value, what game servers parse ports and sizes into. */
export const VARIABLE_INTEGER_LIMIT = 2_147_483_647;
/** The longest string value: room for a MOTD or a flag list, not for a smuggled file. */
export const VARIABLE_STRING_MAX_LENGTH = 4096;

/** C0 controls and DEL: a newline would add a line to a config file, a NUL would cut an argument. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F]/;

type Checked = Pick<Variable, 'type' | 'options' | 'min' | 'max'>;

const refuse = (reason: string): VariableCheck => ({ ok: false, reason });

function inRange(variable: Checked, value: number): VariableCheck {
  if (!Number.isSafeInteger(value) || Math.abs(value) > VARIABLE_INTEGER_LIMIT) {
    return refuse(`not an integer between -${VARIABLE_INTEGER_LIMIT} and ${VARIABLE_INTEGER_LIMIT}`);
  }
  if (variable.min !== undefined && value < variable.min) return refuse(`below the minimum ${variable.min}`);
  if (variable.max !== undefined && value > variable.max) return refuse(`above the maximum ${variable.max}`);
  return { ok: true, value };
}

function asInteger(variable: Checked, value: unknown): VariableCheck {
  if (typeof value === 'number') return inRange(variable, value);
  // Digits only: `1e20`, `0x10` or `12abc` are not integers a form would send.
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim())) {
    return inRange(variable, Number(value.trim()));
  }
  return refuse('not an integer');
}

function asBoolean(value: unknown): VariableCheck {
  if (typeof value === 'boolean') return { ok: true, value };
  if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
  return refuse('not a boolean');
}

function asOption(variable: Checked, value: unknown): VariableCheck {
  const options = variable.options ?? [];
  if (!options.some((o) => o.value === value)) return refuse('not one of the options');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? { ok: true, value }
    : refuse('not a plain value');
}

function asString(value: unknown): VariableCheck {
  if (typeof value !== 'string' && typeof value !== 'number') return refuse('not a string');
  const text = String(value);
  if (text.length > VARIABLE_STRING_MAX_LENGTH) {
    return refuse(`longer than ${VARIABLE_STRING_MAX_LENGTH} characters`);
  }
  if (CONTROL_CHARACTER.test(text)) return refuse('contains a control character (newline, tab, NUL …)');
  return { ok: true, value: text };
}

/** Checks `value` against the variable's type and bounds; `null`/missing means the empty value of that type. */
export function checkVariableValue(variable: Checked, value: unknown): VariableCheck {
  if (value === undefined || value === null) {
    return { ok: true, value: variable.type === 'integer' ? 0 : variable.type === 'boolean' ? false : '' };
  }
  switch (variable.type) {
    case 'integer':
      return asInteger(variable, value);
    case 'boolean':
      return asBoolean(value);
    case 'option':
      return asOption(variable, value);
    case 'string':
      return asString(value);
  }
}
