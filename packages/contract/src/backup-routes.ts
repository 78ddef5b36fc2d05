/**
 * The backup rows of the daemon's permission table (daemon-routes.ts spreads them into `daemonRoutes`;
 * docs/backups.md, docs/permissions.md). Server rows are proxied as `backups` (the panel's
 * modules/servers/backups-proxy.routes.ts: streamed, the backup id checked, long waits for the operations that
 * answer when done); the node rows (destination, status, check) are an administrator's and the panel calls them
 * from `/api/nodes/{id}/backups…` itself. A restore `intoServer` (a clone) is checked for the admin claim by the
 * daemon's handler, as are `limits` in a policy and hook lines (sendServerConsole).
 */
import { z } from 'zod';
import type { DaemonProxy, DaemonRouteRow, PanelProxyNeed } from './daemon-routes';
import { serverParamsSchema } from './daemon-params';
import {
  backupCreatedSchema,
  backupDestinationInputSchema,
  backupCheckResultSchema,
  backupDetailsSchema,
  backupDownloadQuerySchema,
  backupListSchema,
  backupLockBodySchema,
  backupNodeStatusSchema,
  backupParamsSchema,
  backupPolicySchema,
  backupPolicyViewSchema,
  backupRestoreBodySchema,
  backupRestoredSchema,
  backupTreeQuerySchema,
  backupTreeSchema,
} from './backups';
import { fileBytesSchema } from './files';

const S = '/daemon/server/:id';
const P = '/proxy/daemon/server/:id';
const proxied = (suffix: string, panel?: PanelProxyNeed): DaemonProxy =>
  panel
    ? { path: `${P}${suffix}`, forward: 'backups', panel }
    : { path: `${P}${suffix}`, forward: 'backups' };

const none = { params: undefined, query: undefined, body: undefined, response: undefined } as const;
const onServer = { ...none, params: serverParamsSchema } as const;
const onBackup = { ...none, params: backupParamsSchema } as const;
const ok = <T extends z.ZodType>(schema: T) => ({ 200: schema }) as const;
const done = { 204: z.undefined() } as const;
/** An archive streamed as it is made (no staging copy on the node). */
const archive = {
  200: {
    content: {
      'application/gzip': { schema: fileBytesSchema },
      'application/zip': { schema: fileBytesSchema },
    },
  },
} as const;
const pathRefusal = { code: 'ErrFieldInvalid', byField: { path: 'ErrBackupPathInvalid' } } as const;

export const backupRoutes = {
  backupList: {
    method: 'GET',
    path: `${S}/backup`,
    need: ['viewServerBackups'],
    proxy: proxied('/backup'),
    schemas: { ...onServer, response: ok(backupListSchema) },
  },
  backupCreate: {
    method: 'POST',
    path: `${S}/backup`,
    need: ['createServerBackups'],
    proxy: proxied('/backup'),
    note: 'Answers when the snapshot is written; progress goes to the socket meanwhile (backup-progress).',
    schemas: { ...onServer, response: ok(backupCreatedSchema) },
  },
  backupDetails: {
    method: 'GET',
    path: `${S}/backup/:backupId`,
    need: ['viewServerBackups'],
    proxy: proxied('/backup/:backupId'),
    note: 'Every backup id is resolved among this server’s own snapshots: another server’s is a 404.',
    schemas: { ...onBackup, response: ok(backupDetailsSchema) },
  },
  backupTree: {
    method: 'GET',
    path: `${S}/backup/:backupId/tree`,
    need: ['viewServerBackups'],
    proxy: proxied('/backup/:backupId/tree'),
    schemas: {
      ...onBackup,
      query: backupTreeQuerySchema,
      response: ok(backupTreeSchema),
      refusals: { query: pathRefusal },
    },
  },
  backupRestore: {
    method: 'POST',
    path: `${S}/backup/:backupId/restore`,
    need: ['restoreServerBackups'],
    proxy: proxied('/backup/:backupId/restore'),
    note: 'Into the same, stopped server; `intoServer` (a clone into another server of the node) needs the admin claim.',
    schemas: {
      ...onBackup,
      body: backupRestoreBodySchema,
      response: ok(backupRestoredSchema),
      refusals: {
        body: { code: 'ErrFieldInvalid', field: 'body', byField: { paths: 'ErrBackupPathInvalid' } },
      },
    },
  },
  backupDownload: {
    method: 'GET',
    path: `${S}/backup/:backupId/download`,
    need: ['downloadServerBackups'],
    proxy: proxied('/backup/:backupId/download'),
    schemas: {
      ...onBackup,
      query: backupDownloadQuerySchema,
      response: archive,
      refusals: { query: pathRefusal },
    },
  },
  backupLock: {
    method: 'PUT',
    path: `${S}/backup/:backupId/lock`,
    need: ['deleteServerBackups'],
    proxy: proxied('/backup/:backupId/lock'),
    note: 'Unlocking hands a snapshot back to retention, which deletes: the delete flag.',
    schemas: {
      ...onBackup,
      body: backupLockBodySchema,
      response: done,
      refusals: { body: { code: 'ErrFieldInvalid', field: 'locked' } },
    },
  },
  backupDelete: {
    method: 'DELETE',
    path: `${S}/backup/:backupId`,
    need: ['deleteServerBackups'],
    proxy: proxied('/backup/:backupId'),
    schemas: { ...onBackup, response: done },
  },
  backupPolicyRead: {
    method: 'GET',
    path: `${S}/backup-policy`,
    need: ['viewServerBackups'],
    proxy: proxied('/backup-policy'),
    schemas: { ...onServer, response: ok(backupPolicyViewSchema) },
  },
  backupPolicyWrite: {
    method: 'PUT',
    path: `${S}/backup-policy`,
    need: ['createServerBackups'],
    proxy: proxied('/backup-policy'),
    note:
      'A schedule creates backups. Changing `retention` (which deletes) also needs deleteServerBackups, ' +
      '`hooks` also sendServerConsole (they are console lines), `limits` the admin claim: the daemon checks them.',
    schemas: {
      ...onServer,
      body: backupPolicySchema,
      response: done,
      refusals: {
        body: { code: 'ErrFieldInvalid', field: 'policy', byField: { schedule: 'ErrInvalidCron' } },
      },
    },
  },
  backupNodeStatus: {
    method: 'GET',
    path: '/daemon/backups',
    need: 'admin',
    note: 'The node’s destination, last check and prune: the panel’s `GET /api/nodes/{id}/backups` (admins).',
    schemas: { ...none, response: ok(backupNodeStatusSchema) },
  },
  backupDestinationWrite: {
    method: 'PUT',
    path: '/daemon/backups/destination',
    need: 'admin',
    note: 'Secrets are stored on the node (0600) and never answered back; the panel’s `PUT /api/nodes/{id}/backups`.',
    schemas: {
      ...none,
      body: backupDestinationInputSchema,
      response: done,
      refusals: { body: { code: 'ErrFieldInvalid', field: 'destination' } },
    },
  },
  backupCheck: {
    method: 'POST',
    path: '/daemon/backups/check',
    need: 'admin',
    note: 'A `restic check` of a subset of the data now (it also runs on its own schedule).',
    schemas: { ...none, response: ok(backupCheckResultSchema) },
  },
} as const satisfies Record<string, DaemonRouteRow>;
