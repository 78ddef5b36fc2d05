/** The permission table itself: one row per route and message, every need expressible on both sides. */
import { describe, expect, it } from 'vitest';
import {
  clientMessageTypes,
  daemonRouteRows,
  fileMessageSchema,
  isServerRoute,
  panelNeedOf,
  proxiedRows,
  socketMessageKeyOf,
  socketMessageRows,
  type DaemonRouteRow,
} from '../src';

const routeOf = ([, row]: [string, DaemonRouteRow]) => `${row.method} ${row.path}`;

describe('daemon route rows', () => {
  it('name each method and path once, and each proxied path once', () => {
    const rows = daemonRouteRows();
    expect(new Set(rows.map(routeOf)).size).toBe(rows.length);
    const proxied = rows.filter(([, row]) => row.proxy).map(([, row]) => `${row.method} ${row.proxy?.path}`);
    expect(new Set(proxied).size).toBe(proxied.length);
  });

  it('proxy a server route at the same suffix under /proxy', () => {
    for (const [key, row] of daemonRouteRows()) {
      if (!row.proxy) continue;
      expect(isServerRoute(row), key).toBe(true);
      expect(row.proxy.path, key).toBe(`/proxy${row.path}`);
    }
  });

  it('say what the panel checks for every proxied row; admin and several-flag rows say it themselves', () => {
    for (const forward of ['plain', 'files', 'tasks', 'socket'] as const) {
      for (const [key, row] of proxiedRows(forward)) {
        const panel = panelNeedOf(row);
        if (row.need === 'admin') expect(panel.permission, key).not.toBe('authenticated');
        if (Array.isArray(row.need)) {
          expect(row.need.length === 1 || row.proxy.panel !== undefined, key).toBe(true);
        }
      }
    }
    expect(() =>
      panelNeedOf({
        method: 'POST',
        path: '/daemon/server/:id/x',
        need: 'admin',
        proxy: { path: '/p', forward: 'plain' },
      }),
    ).toThrow();
  });

  it('keep node-wide rows to the liveness answer, node-admin calls, the metrics scrape, the outbox and transfers', () => {
    const nodeWide = daemonRouteRows().filter(([, row]) => !isServerRoute(row));
    expect(nodeWide.map(([key]) => key).sort()).toEqual([
      'alertWatches',
      'alive',
      'backupCheck',
      'backupDestinationWrite',
      'backupNodeStatus',
      'events',
      'eventsAck',
      'features',
      'metrics',
      'players',
      'transferAbort',
      'transferCarry',
      'transferCommit',
      'transferData',
      'transferExport',
      'transferPrepare',
    ]);
    for (const [key, row] of nodeWide)
      expect(['public', 'admin', 'metrics', 'panel'], key).toContain(row.need);
    // The outbox holds every server's events: only the panel itself reads it, and nobody through a proxy.
    for (const [key, row] of daemonRouteRows().filter(([, r]) => r.need === 'panel')) {
      expect(isServerRoute(row), key).toBe(false);
      expect(row.proxy, key).toBeUndefined();
    }
    for (const [key, row] of daemonRouteRows().filter(([, r]) => isServerRoute(r))) {
      expect(row.need, key).not.toBe('public');
      expect(row.need, key).not.toBe('metrics');
    }
    // A metrics row carries no server data a panel token could be refused for, and is never proxied.
    for (const [key, row] of daemonRouteRows().filter(([, r]) => r.need === 'metrics')) {
      expect(row.proxy, key).toBeUndefined();
    }
  });
});

describe('socket message rows', () => {
  const fileActions = fileMessageSchema.shape.action.options;

  it('cover every client message type, and file messages per action the contract defines', () => {
    const rows = socketMessageRows();
    expect([...new Set(rows.map(([, row]) => row.type))].sort()).toEqual([...clientMessageTypes].sort());
    const files = rows.filter(([, row]) => row.type === 'file');
    expect(files.map(([, row]) => row.action).sort()).toEqual([...fileActions].sort());
    for (const [key, row] of rows) expect(key).toBe(row.action ? `${row.type}:${row.action}` : row.type);
  });

  it('read file actions need viewServerFiles; writing ones putServerFiles', () => {
    for (const [key, row] of socketMessageRows().filter(([, r]) => r.type === 'file')) {
      expect(row.need, key).toContain('viewServerFiles');
      if (row.action !== 'get') expect(row.need, key).toContain('putServerFiles');
    }
  });

  it('classify a message as the daemon parses it, and nothing the table lacks', () => {
    const keyOf = socketMessageKeyOf;
    expect(keyOf({ type: 'console', command: 'x' })).toBe('console');
    expect(keyOf({ type: 'START' })).toBe('start');
    expect(keyOf({ type: 'file', action: 'get', path: '' })).toBe('file:get');
    expect(keyOf({ type: 'file', data: { action: 'delete', path: 'a' } })).toBe('file:delete');
    // The envelope wins over a field beside `type`, as in the daemon's parse.
    expect(keyOf({ type: 'file', action: 'get', data: { action: 'delete' } })).toBe('file:delete');
    for (const refused of [
      { type: 'file' },
      { type: 'file', action: 'list' },
      { type: 'file', action: 'read' },
      { type: 'file', action: 'stat' },
      { type: 'file', action: 'GET' },
      { type: 'file:get' },
      { type: 'toString' },
      { type: '__proto__' },
      { type: 'hasOwnProperty' },
      { type: 'shell' },
      { type: 42 },
      {},
      null,
      'start',
    ]) {
      expect(keyOf(refused), JSON.stringify(refused)).toBeUndefined();
    }
  });
});
