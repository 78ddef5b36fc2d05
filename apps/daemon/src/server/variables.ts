/**
 * `${name}` substitution (reference §15): template variables plus `rootDir` and `serverId`. Unknown names are
 * left as written, so a literal `${HOME}` meant for a shell survives. Unlike PufferPanel, command lines are
 * split into arguments BEFORE substitution (./command-argv, docs/daemon.md § Variables and commands): the
 * lines of a `command` step are left alone here and substituted per argument when they run.
 */
import { AppError, checkVariableValue, type Template } from '@hearth/contract';

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

/** The names only an administrator may set (`userEdit: false`): their whole-argument values may hold arguments. */
export function adminOnlyNames(definition: Pick<Template, 'data'>): Set<string> {
  return new Set(
    Object.entries(definition.data)
      .filter(([, variable]) => !variable.userEdit)
      .map(([name]) => name),
  );
}

/** A `command` processor or task operation: its lines are substituted per argument by the runner, not here. */
function isCommandStep(value: object): value is { type: 'command'; commands: unknown[] } {
  const step = value as { type?: unknown; commands?: unknown };
  return step.type === 'command' && Array.isArray(step.commands);
}

/**
 * Substitutes every string inside a processor or map (strings, string lists, string maps), except the lines
 * of a `command` step: as text they could gain arguments or shell syntax from a value.
 */
export function substituteDeep<T>(value: T, values: Substitutions): T {
  if (typeof value === 'string') return substitute(value, values) as T;
  if (typeof value === 'object' && value !== null && isCommandStep(value)) {
    const { commands, ...rest } = value;
    return { ...substituteDeep(rest, values), commands } as T;
  }
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

/** Checks every variable of a definition against its declared type and bounds (definition POST / create). */
export function assertVariableTypes(definition: Template): void {
  for (const [name, variable] of Object.entries(definition.data)) {
    const checked = checkVariableValue(variable, variable.value);
    if (!checked.ok) {
      throw new AppError('ErrVariableType', { field: name, type: variable.type, reason: checked.reason });
    }
  }
}

/** Applies `{name: {value}}` updates to a definition's variables, checking types; returns a new definition. */
export function applyDataUpdate(definition: Template, updates: Record<string, { value: unknown }>): Template {
  const data = { ...definition.data };
  for (const [name, { value }] of Object.entries(updates)) {
    const variable = data[name];
    if (!variable) throw new AppError('ErrFieldUnknown', { field: `data.${name}` });
    const checked = checkVariableValue(variable, value);
    if (!checked.ok) {
      throw new AppError('ErrVariableType', { field: name, type: variable.type, reason: checked.reason });
    }
    data[name] = { ...variable, value: checked.value };
  }
  return { ...definition, data };
}
