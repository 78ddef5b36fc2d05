import type { Environment, EnvironmentType } from '@hearth/contract';

export const environmentTypes: readonly EnvironmentType[] = ['standard', 'tty', 'docker'];

export function unusedTypes(list: readonly Environment[]): EnvironmentType[] {
  return environmentTypes.filter((type) => !list.some((env) => env.type === type));
}

/** An entry can be added only while some type is unused. */
export function canAdd(list: readonly Environment[]): boolean {
  return unusedTypes(list).length > 0;
}

export function newEnvironment(type: EnvironmentType): Environment {
  if (type === 'docker') {
    return { type, image: 'pufferpanel/generic', networkMode: 'host', bindings: {}, portBindings: [] };
  }
  return { type };
}

/**
 * Saving a new entry appends, saving an edit replaces (`index`). Each type appears at most once: a save that
 * would repeat a type another entry already has is refused (returns null).
 */
export function saveEnvironment(
  list: readonly Environment[],
  entry: Environment,
  index?: number,
): Environment[] | null {
  const clash = list.some((env, i) => env.type === entry.type && i !== index);
  if (clash) return null;
  if (index === undefined || index >= list.length) return [...list, entry];
  return list.map((env, i) => (i === index ? entry : env));
}

export function removeEnvironment(list: readonly Environment[], index: number): Environment[] {
  return list.filter((_env, i) => i !== index);
}

/** After the supported list changes the default is re-matched by type; gone → the first supported entry. */
export function rematchDefault(current: Environment, list: readonly Environment[]): Environment {
  return list.find((env) => env.type === current.type) ?? list[0] ?? current;
}

/** Port bindings are text `host:outsidePort:insidePort/protocol`; the host defaults to `{ip}`, protocol tcp. */
export function formatPortBinding(parts: {
  host?: string;
  outside: number;
  inside: number;
  protocol?: string;
}) {
  return `${parts.host || '{ip}'}:${parts.outside}:${parts.inside}/${parts.protocol || 'tcp'}`;
}
