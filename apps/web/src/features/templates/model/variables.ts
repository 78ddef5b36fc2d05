import type { Variable, VariableType } from '@hearth/contract';

/** A variable name cannot be empty or contain spaces. Returns the i18n key of the message. */
export function variableNameError(name: string): string | null {
  return name === '' || /\s/.test(name) ? 'templates.variables.nameRule' : null;
}

/** A variable as the "add" button creates it (schema defaults). */
export function newVariable(): Variable {
  return { display: '', desc: '', type: 'string', value: '', required: true, userEdit: true };
}

/** Switching to `option` creates an empty options list when there is none. */
export function changeVariableType(variable: Variable, type: VariableType): Variable {
  const next: Variable = { ...variable, type };
  if (type === 'option' && next.options === undefined) next.options = [];
  return next;
}

/** Renames a key in the data map, keeping the order of the others. */
export function renameVariable(
  data: Record<string, Variable>,
  from: string,
  to: string,
  variable: Variable,
): Record<string, Variable> {
  const entries = Object.entries(data).map(([name, v]): [string, Variable] =>
    name === from ? [to, variable] : [name, v],
  );
  if (!(from in data)) entries.push([to, variable]);
  return Object.fromEntries(entries);
}

/** A variable value as input text: scalars as written, anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}
