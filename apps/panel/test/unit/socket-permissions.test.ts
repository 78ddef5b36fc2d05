/**
 * The panel's socket checker walks the socket rows of the contract's permission table (docs/permissions.md):
 * each row is refused without each flag it needs and let through with exactly them; a type or file action
 * the table lacks is refused as invalid, whatever the caller holds.
 */
import { describe, expect, it } from 'vitest';
import {
  AppError,
  flagsOf,
  serverPermissions,
  socketMessageRows,
  type ServerPermission,
  type ServerPermissionSet,
} from '@hearth/contract';
import type { ServerAccess } from '../../src/app-types';
import { checkInbound } from '../../src/modules/servers/socket-permissions';

function accessWith(flags: readonly ServerPermission[]): ServerAccess {
  const perms = Object.fromEntries(
    serverPermissions.map((p) => [p, flags.includes(p)]),
  ) as ServerPermissionSet;
  return { serverId: 's1', nodeId: 'n1', perms };
}

function refusal(text: string, access: ServerAccess): { code: string; metadata?: unknown } | null {
  try {
    checkInbound(text, access);
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, metadata: err.metadata };
  }
}

const everything = accessWith(serverPermissions);

describe('panel socket checker', () => {
  it.each(socketMessageRows())('%s', (_key, row) => {
    const bare = { type: row.type, ...(row.action ? { action: row.action, path: '' } : {}) };
    const envelope = {
      type: row.type.toUpperCase(),
      data: row.action ? { action: row.action, path: '' } : {},
    };
    for (const message of [bare, envelope]) {
      const text = JSON.stringify(message);
      for (const flag of flagsOf(row.need)) {
        const without = accessWith(serverPermissions.filter((p) => p !== flag));
        expect(refusal(text, without), `${text} without ${flag}`).toEqual({
          code: 'ErrNoPermission',
          metadata: { permission: flag },
        });
      }
      expect(refusal(text, accessWith(flagsOf(row.need))), `${text} with its need`).toBeNull();
    }
  });

  it.each([
    { type: 'file', action: 'list', path: '' },
    { type: 'file', action: 'read', path: 'a' },
    { type: 'file', action: 'stat', path: 'a' },
    { type: 'file', data: { action: 'rename', path: 'a' } },
    { type: 'file', path: '' },
    { type: 'file:get' },
    { type: 'shell', command: 'id' },
    { type: 'toString' },
    { type: '__proto__' },
    { type: 'constructor' },
    { type: 42 },
    { data: { type: 'start' } },
    {},
  ])('refuses %j, whatever the caller holds', (message) => {
    expect(refusal(JSON.stringify(message), everything)?.code).toBe('ErrFieldInvalid');
  });

  it('refuses what is not a JSON object', () => {
    expect(refusal('{not json', everything)?.code).toBe('ErrInvalidJson');
    for (const text of ['null', '[]', '"start"', '42']) {
      expect(refusal(text, everything)?.code, text).toBe('ErrFieldInvalid');
    }
  });

  it('names the action when a file message’s action is unknown', () => {
    expect(refusal(JSON.stringify({ type: 'FILE', action: 'list' }), everything)?.metadata).toEqual({
      field: 'action',
    });
  });
});
