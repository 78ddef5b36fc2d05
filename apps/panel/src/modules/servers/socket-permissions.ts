/**
 * What each inbound socket message needs (SPEC §4 live socket). The panel checks every message itself before
 * it reaches the daemon — PufferPanel's proxy only checked the connection, so any user who could open the
 * console could also send commands. A message the panel cannot classify is refused, never forwarded.
 */
import { AppError, serverPermissions, type ServerPermission } from '@hearth/contract';
import type { ServerAccess } from '../../app-types';

type Need = ServerPermission | 'view';

const needs: Record<string, Need[]> = {
  start: ['startServer'],
  stop: ['stopServer'],
  kill: ['stopServer'],
  restart: ['startServer', 'stopServer'],
  install: ['installServer'],
  stat: ['viewServerStats'],
  status: ['view'],
  replay: ['viewServerConsole'],
  console: ['sendServerConsole'],
  ping: ['view'],
};

/** File messages (files issue): reading needs viewServerFiles, anything that writes putServerFiles. */
const FILE_READ_ACTIONS = new Set(['get', 'list', 'read', 'stat']);

function typeOf(message: Record<string, unknown>): string | undefined {
  return typeof message.type === 'string' ? message.type.toLowerCase() : undefined;
}

function needsOf(message: Record<string, unknown>): Need[] | undefined {
  const type = typeOf(message);
  if (type === undefined) return undefined;
  if (type === 'file') {
    const data = (typeof message.data === 'object' && message.data) || message;
    const action = (data as Record<string, unknown>).action;
    return [
      typeof action === 'string' && FILE_READ_ACTIONS.has(action) ? 'viewServerFiles' : 'putServerFiles',
    ];
  }
  return Object.hasOwn(needs, type) ? needs[type] : undefined;
}

/** Parses one inbound frame and checks it against the caller's flags; throws the catalogued refusal. */
export function checkInbound(text: string, access: ServerAccess): void {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (err) {
    throw new AppError('ErrInvalidJson', undefined, { cause: err });
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new AppError('ErrFieldInvalid', { field: 'type' });
  }
  const required = needsOf(message as Record<string, unknown>);
  if (!required) throw new AppError('ErrFieldInvalid', { field: 'type' });
  for (const need of required) {
    if (need !== 'view' && !access.perms[need]) throw new AppError('ErrNoPermission', { permission: need });
  }
}

/** Two flag sets equal on every server flag (a change closes the user's sockets). */
export function samePerms(a: ServerAccess['perms'], b: ServerAccess['perms']): boolean {
  return serverPermissions.every((p) => a[p] === b[p]);
}
