import { checkVariableValue, type Variable } from '@hearth/contract';

/** What an input holds for one variable: boolean for switches, number (or '' while empty) for integers. */
export type VariableValue = string | number | boolean;

const SERVER_NAME = /^[A-Za-z0-9 _.-]+$/;

/** A server name is not empty and has no special characters. Returns an i18n key or null. */
export function serverNameError(name: string): string | null {
  if (name.trim() === '') return 'validation.required';
  return SERVER_NAME.test(name) ? null : 'servers.validation.name';
}

/** The input value for a variable's stored value, by its type. */
export function toInputValue(variable: Variable): VariableValue {
  const v = variable.value;
  switch (variable.type) {
    case 'boolean':
      return v === true || v === 'true';
    case 'integer': {
      const n = typeof v === 'number' ? v : Number(v);
      return v === undefined || v === null || v === '' || Number.isNaN(n) ? '' : n;
    }
    case 'option':
    case 'string':
      return scalarText(v);
  }
}

function scalarText(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? String(v)
    : JSON.stringify(v);
}

/**
 * The value to send: booleans and integers are cast (PufferPanel's AddServer does the same); an option gives
 * back the option's own value, so a numeric option stays a number.
 */
export function toWireValue(variable: Variable, value: VariableValue): unknown {
  switch (variable.type) {
    case 'boolean':
      return value === true;
    case 'integer':
      return value === '' ? null : Number(value);
    case 'option':
      return variable.options?.find((o) => String(o.value) === String(value))?.value ?? value;
    case 'string':
      return String(value);
  }
}

/**
 * Settings/Add server: a required variable must have a value, and a value must pass the same type and range
 * check the daemon applies (checkVariableValue, docs/daemon.md § Variables and commands), so a port of
 * 99999999 is refused in the form rather than by the daemon. Returns an i18n key or null; the input fills in
 * `{{min}}`/`{{max}}` from the variable.
 */
export function variableError(variable: Variable, value: VariableValue): string | null {
  if (variable.type === 'boolean') return null;
  if (value === '') return variable.required ? 'validation.required' : null;
  if (checkVariableValue(variable, toWireValue(variable, value)).ok) return null;
  return variable.type === 'integer' ? 'validation.integerRange' : 'validation.textLine';
}

export function initialValues(data: Record<string, Variable>): Record<string, VariableValue> {
  return Object.fromEntries(Object.entries(data).map(([name, v]) => [name, toInputValue(v)]));
}

export function wireValues(
  data: Record<string, Variable>,
  values: Record<string, VariableValue>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([name, v]) => [name, toWireValue(v, values[name] ?? toInputValue(v))]),
  );
}

export function variableErrors(
  data: Record<string, Variable>,
  values: Record<string, VariableValue>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(data)) {
    const error = variableError(v, values[name] ?? toInputValue(v));
    if (error) out[name] = error;
  }
  return out;
}
