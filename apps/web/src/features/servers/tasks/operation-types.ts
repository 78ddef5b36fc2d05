/**
 * Which step types the task editor offers (docs/security.md § Tasks): only what the user could do by hand on
 * this server — the daemon refuses to save anything else (403 ErrNoPermission). Raw commands and downloads are
 * for holders of the daemon's admin power: panel admins and editServerAdmin (the same rule as the tokens the
 * panel signs for them).
 */
import {
  knownProcessorTypes,
  operationsOffered,
  runtimeStepTypes,
  serverPermissions,
  type ServerPermission,
} from '@hearth/contract';
import { hasScope } from '../../../api/scopes';

export interface StepHolder {
  admin: boolean;
  perms: ServerPermission[];
}

/** The holder the daemon will see: admin power from the session's scopes, flags from the server's. */
export function stepHolder(
  scopes: readonly string[],
  permissions: Partial<Record<string, boolean>>,
): StepHolder {
  return {
    admin: hasScope(scopes, 'servers.edit.admin'),
    perms: serverPermissions.filter((p) => permissions[p] === true),
  };
}

/** The offered types in the editor's order (runtime steps, then processors). */
export function offeredStepTypes(holder: StepHolder): string[] {
  const offered = new Set(operationsOffered(holder));
  return [...runtimeStepTypes, ...knownProcessorTypes].filter((type) => offered.has(type));
}

/** A row's choices: the offered types, plus its own type when that is not offered (shown, not chosen). */
export function rowStepTypes(offered: readonly string[], current: string): string[] {
  return offered.includes(current) ? [...offered] : [...offered, current];
}

/** The type a new step starts as: a console line when offered, else the first offered type. */
export function firstStepType(offered: readonly string[]): string | null {
  return offered.includes('console') ? 'console' : (offered[0] ?? null);
}
