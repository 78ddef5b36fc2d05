/**
 * `${name}` substitution (reference §15): template variables plus `rootDir` and `serverId`. Unknown names are
 * left as written, so a literal `${HOME}` meant for a shell survives. Substitution happens before splitting a
 * command line, as in PufferPanel.
 */
import { AppError, checkVariableValue, type Template, type VariableValue } from '@hearth/contract';

export type Substitutions = Record<string, string>;

export function substitutionsFor(definition: Template, serverId: string, rootDir: string): Substitutions {
  const values: Substitutions = {};
  for (const [name, variable] of Object.entries(definition.data)) {
    const checked = checkVariableValue(variable, variable.value);
    values[name] = checked.ok ? String(checked.value) : '';
  }
  return { ...values, rootDir, serverId };
}

export function substitute(text: string, values: Substitutions): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Substitutes every string inside a processor or map (strings, string lists, string maps). */
export function substituteDeep<T>(value: T, values: Substitutions): T {
  if (typeof value === 'string') return substitute(value, values) as T;
  if (Array.isArray(value)) {
    const list: unknown[] = value;
    return list.map((v) => substituteDeep(v, values)) as T;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]): [string, unknown] => [
      k,
      substituteDeep(v, values),
    ]);
    return Object.fromEntries(entries) as T;
  }
  return value;
}

/** Checks every variable of a definition against its declared type (definition POST / create). */
export function assertVariableTypes(definition: Template): void {
  for (const [name, variable] of Object.entries(definition.data)) {
    if (!checkVariableValue(variable, variable.value).ok) {
      throw new AppError('ErrVariableType', { field: name, type: variable.type });
    }
  }
}

/** Applies `{name: {value}}` updates to a definition's variables, checking types; returns a new definition. */
export function applyDataUpdate(definition: Template, updates: Record<string, { value: unknown }>): Template {
  const data = { ...definition.data };
  for (const [name, { value }] of Object.entries(updates)) {
    const variable = data[name];
    if (!variable) throw new AppError('ErrFieldUnknown', { field: `data.${name}` });
    const checked: { ok: boolean; value?: VariableValue } = checkVariableValue(variable, value);
    if (!checked.ok) throw new AppError('ErrVariableType', { field: name, type: variable.type });
    data[name] = { ...variable, value: checked.value };
  }
  return { ...definition, data };
}
