import { ADMIN_SCOPE } from '@hearth/contract';

/** `servers.admin` matches every scope. */
export function hasScope(scopes: readonly string[], scope: string): boolean {
  return scopes.includes(ADMIN_SCOPE) || scopes.includes(scope);
}

export function isAdmin(scopes: readonly string[]): boolean {
  return scopes.includes(ADMIN_SCOPE);
}
