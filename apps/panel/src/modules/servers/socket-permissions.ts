/**
 * What each inbound socket message needs: the socket rows of the contract's permission table
 * (docs/permissions.md), read the way the daemon parses a message. The panel checks every message itself
 * before it reaches the daemon — PufferPanel's proxy only checked the connection, so any user who could open
 * the console could also send commands. A type or file action the table does not hold is refused, never
 * forwarded.
 */
import { AppError, flagsOf, serverPermissions, socketMessageKeyOf, socketMessages } from '@hearth/contract';
import type { ServerAccess } from '../../app-types';

/**
 * Parses one inbound frame and checks it against the caller's flags; throws the catalogued refusal, else
 * answers the message's key in the table.
 */
export function checkInbound(text: string, access: ServerAccess): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (err) {
    throw new AppError('ErrInvalidJson', undefined, { cause: err });
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new AppError('ErrFieldInvalid', { field: 'type' });
  }
  const key = socketMessageKeyOf(message);
  if (!key) {
    const type = (message as { type?: unknown }).type;
    const isFile = typeof type === 'string' && type.toLowerCase() === 'file';
    throw new AppError('ErrFieldInvalid', { field: isFile ? 'action' : 'type' });
  }
  for (const flag of flagsOf(socketMessages[key].need)) {
    if (!access.perms[flag]) throw new AppError('ErrNoPermission', { permission: flag });
  }
  return key;
}

/** Two flag sets equal on every server flag (a change closes the user's sockets). */
export function samePerms(a: ServerAccess['perms'], b: ServerAccess['perms']): boolean {
  return serverPermissions.every((p) => a[p] === b[p]);
}
