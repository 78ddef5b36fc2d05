/**
 * Extra `bindings` (host path → container path). They reach outside the server folder, so they are honoured
 * only when an admin wrote the definition (`adminEdited`, set by the daemon from the token, never from the
 * body) and are substituted only with values a non-admin cannot change (variables with `userEdit: false`).
 */
import { isAbsolute } from 'node:path';
import { AppError, type Template } from '@hearth/contract';
import { substitute, type Substitutions } from '../../server/variables';
import { CONTAINER_ROOT } from './settings';

/** Substitutions without the variables a user may edit (their values must not pick a host path). */
export function adminOnlySubstitutions(definition: Template, values: Substitutions): Substitutions {
  const userEditable = Object.entries(definition.data)
    .filter(([, v]) => v.userEdit)
    .map(([name]) => name);
  return Object.fromEntries(Object.entries(values).filter(([key]) => !userEditable.includes(key)));
}

function checked(path: string, binding: string): string {
  if (!isAbsolute(path) || path.includes('\0') || path.split('/').includes('..')) {
    throw new AppError('ErrDockerBindingInvalid', { binding, reason: 'paths must be absolute, without ..' });
  }
  return path;
}

/** `host:container` bind strings for Docker's `HostConfig.Binds`; the server folder always comes first. */
export function bindsOf(
  root: string,
  bindings: Record<string, string>,
  values: Substitutions,
  honoured: boolean,
): string[] {
  const binds = [`${root}:${CONTAINER_ROOT}`];
  if (!honoured) return binds;
  for (const [hostRaw, containerRaw] of Object.entries(bindings)) {
    const host = substitute(hostRaw, values);
    const container = substitute(containerRaw, values);
    const label = `${host} → ${container}`;
    if (checked(container, label) === CONTAINER_ROOT) {
      throw new AppError('ErrDockerBindingInvalid', { binding: label, reason: `${CONTAINER_ROOT} is taken` });
    }
    binds.push(`${checked(host, label)}:${container}`);
  }
  return binds;
}
