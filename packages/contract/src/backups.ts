/**
 * Backups of a server (docs/backups.md): restic snapshots in one repository per node, each tagged with its
 * server, listed, browsed, restored, downloaded, locked and deleted through the server's own routes; a policy per
 * server (retention, schedule, hooks, admin limits); progress over the live socket; and the node's destination,
 * set by an administrator. Times are unix milliseconds, sizes bytes.
 */
import { z } from 'zod';
import { backupHooksSchema } from './backup-hooks';
import { serverIdSchema } from './daemon';
import { serverNameSchema } from './servers';

export * from './backup-hooks';
export * from './backup-events';

/** A snapshot id as restic prints it: the full 64 hex digits, or a prefix of at least 8 (its short id). */
export const backupIdSchema = z.string().regex(/^[0-9a-f]{8,64}$/, '8 to 64 lowercase hex digits');
export type BackupId = z.infer<typeof backupIdSchema>;

/** `/daemon/server/:id/backup/:backupId…`: a malformed backup id names no backup (404, like an unknown one). */
export const backupParamsSchema = z.object({
  id: z.string().refine((v) => serverIdSchema.safeParse(v).success, {
    message: 'no such server',
    params: { code: 'ErrServerNotFound' },
  }),
  backupId: z.string().refine((v) => backupIdSchema.safeParse(v).success, {
    message: 'no such backup',
    params: { code: 'ErrBackupNotFound' },
  }),
});
export type BackupParams = z.infer<typeof backupParamsSchema>;

export const backupTriggers = ['manual', 'task', 'schedule'] as const;
export const backupTriggerSchema = z.enum(backupTriggers);
export type BackupTrigger = z.infer<typeof backupTriggerSchema>;

/** One snapshot of a server, as listed. */
export const backupSchema = z.object({
  /** The full snapshot id (64 hex digits). */
  id: z.string(),
  shortId: z.string(),
  time: z.number(),
  trigger: backupTriggerSchema,
  /** The user id (token `sub`) who asked for it, or who owns the task; null for the policy's schedule. */
  by: z.string().nullable(),
  /** Kept whatever the retention policy says, and not deletable until unlocked. */
  locked: z.boolean(),
  /** The server was running and had no backup hooks: files were read as they were at that moment. */
  asIs: z.boolean(),
  /** Bytes this snapshot added to the repository (after deduplication and compression); null when unknown. */
  sizeAdded: z.number().nullable(),
  /** Bytes of the files in the snapshot; null when unknown (e.g. the node's records were lost). */
  totalSize: z.number().nullable(),
  fileCount: z.number().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

/** The outcome of the server's last backup or restore operation. */
export const backupResultSchema = z.object({
  operation: z.string(),
  kind: z.enum(['backup', 'restore']),
  at: z.number(),
  ok: z.boolean(),
  backupId: z.string().optional(),
  error: z.object({ code: z.string(), msg: z.string() }).optional(),
});
export type BackupResult = z.infer<typeof backupResultSchema>;

/** `GET …/backup`: the server's snapshots (newest first) and its state. */
export const backupListSchema = z.object({
  backups: z.array(backupSchema),
  /** The operation now running on this server (one at a time), or null. */
  running: z.object({ operation: z.string(), kind: z.enum(['backup', 'restore']) }).nullable(),
  last: backupResultSchema.nullable(),
  /** Unix ms of the policy's next scheduled backup; null without a schedule. */
  nextScheduled: z.number().nullable(),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** `GET …/backup/{backupId}`: one snapshot with where it came from. */
export const backupDetailsSchema = backupSchema.extend({
  hostname: z.string(),
  /** The node's hook outcome: `ran` (pre and post commands), `none` (no hooks or stopped server). */
  hooks: z.enum(['ran', 'none']),
});
export type BackupDetails = z.infer<typeof backupDetailsSchema>;

/** `POST …/backup` answers when the snapshot is written: its id, and the operation id its socket events carry. */
export const backupCreatedSchema = z.object({ id: z.string(), operation: z.string() });
export type BackupCreated = z.infer<typeof backupCreatedSchema>;

/**
 * A path inside a snapshot, relative to the server folder (`''` = the whole folder). `..`, absolute paths, NUL
 * and backslashes are refused (ErrBackupPathInvalid); a leading or trailing `/` is dropped.
 */
export const backupPathSchema = z
  .string()
  .max(4096)
  .transform((v) => v.replace(/^\/+|\/+$/g, ''))
  .refine(
    (v) => !v.includes('\0') && !v.includes('\\') && !v.split('/').some((p) => p === '..' || p === '.'),
    {
      message: 'a path inside the server folder',
      params: { code: 'ErrBackupPathInvalid' },
    },
  );
export type BackupPath = z.output<typeof backupPathSchema>;

/** `GET …/backup/{backupId}/tree?path=` */
export const backupTreeQuerySchema = z.object({ path: backupPathSchema.default('') });
export type BackupTreeQuery = z.output<typeof backupTreeQuerySchema>;

export const backupTreeEntrySchema = z.object({
  name: z.string(),
  /** Relative to the server folder. */
  path: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'other']),
  size: z.number(),
  mtime: z.number(),
});
export type BackupTreeEntry = z.infer<typeof backupTreeEntrySchema>;

export const backupTreeSchema = z.object({ path: z.string(), entries: z.array(backupTreeEntrySchema) });
export type BackupTree = z.infer<typeof backupTreeSchema>;

/**
 * `POST …/backup/{backupId}/restore`: the whole snapshot, or only `paths`; `intoServer` restores into another
 * (stopped) server of the same node instead — a clone, for administrators.
 */
export const backupRestoreBodySchema = z.object({
  paths: z
    .array(backupPathSchema.refine((v) => v !== '', 'not the root'))
    .min(1)
    .max(100)
    .optional(),
  intoServer: serverIdSchema.optional(),
});
export type BackupRestoreBody = z.output<typeof backupRestoreBodySchema>;

export const backupRestoredSchema = z.object({ operation: z.string(), server: z.string() });
export type BackupRestored = z.infer<typeof backupRestoredSchema>;

/**
 * `POST /api/servers/{id}/backup/{backupId}/clone` (administrators): a new server on the same node, named `name`,
 * with the source server's definition (template, variables, environment), created through the panel's server
 * creation; the snapshot (or only `paths`) is then restored into it. A failed restore removes the new server.
 */
export const backupCloneBodySchema = z.object({
  name: serverNameSchema,
  paths: backupRestoreBodySchema.shape.paths,
});
export type BackupCloneBody = z.output<typeof backupCloneBodySchema>;

/** The new server's id (`server`, generated by the panel like every server's) and the restore's operation. */
export const backupClonedSchema = z.object({ server: z.string(), operation: z.string() });
export type BackupCloned = z.infer<typeof backupClonedSchema>;

export const backupFormats = ['tar.gz', 'zip'] as const;

/** `GET …/backup/{backupId}/download?path=&format=`: a folder as an archive, a file as a one-file archive. */
export const backupDownloadQuerySchema = z.object({
  path: backupPathSchema.default(''),
  format: z.enum(backupFormats).default('tar.gz'),
});
export type BackupDownloadQuery = z.output<typeof backupDownloadQuerySchema>;

/** `PUT …/backup/{backupId}/lock` */
export const backupLockBodySchema = z.object({ locked: z.boolean() });
export type BackupLockBody = z.infer<typeof backupLockBodySchema>;

const count = z.number().int().min(0).max(10_000);

/** How many snapshots `forget` keeps after each backup (restic's `--keep-*`); all 0 = keep everything. */
export const backupRetentionSchema = z.object({
  keepLast: count.default(0),
  keepDaily: count.default(0),
  keepWeekly: count.default(0),
  keepMonthly: count.default(0),
});
export type BackupRetention = z.infer<typeof backupRetentionSchema>;

/** Admin-set limits per server (null = no limit). */
export const backupLimitsSchema = z.object({
  maxSnapshots: z.number().int().min(1).max(10_000).nullable().default(null),
  /** Bytes of the repository this server's snapshots may take (their restore size, summed). */
  maxRepositoryBytes: z.number().int().min(1).nullable().default(null),
  /** Seconds between two manual backups (tasks and the schedule are not held to it). */
  minIntervalSeconds: z.number().int().min(1).max(31_536_000).nullable().default(null),
});
export type BackupLimits = z.output<typeof backupLimitsSchema>;

/**
 * `GET/PUT …/backup-policy`. `hooks`: `null` = the template's (if any); an object overrides them (sending these
 * lines also needs sendServerConsole); `false` = none. `limits` may be changed by administrators only.
 */
export const backupPolicySchema = z.object({
  retention: backupRetentionSchema.default({ keepLast: 0, keepDaily: 0, keepWeekly: 0, keepMonthly: 0 }),
  /** 5-field cron (docs/daemon.md § Tasks, the same validator) or null: no scheduled backups. */
  schedule: z
    .string()
    .nullish()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : null)),
  hooks: z.union([backupHooksSchema, z.literal(false), z.null()]).default(null),
  limits: backupLimitsSchema.default({
    maxSnapshots: null,
    maxRepositoryBytes: null,
    minIntervalSeconds: null,
  }),
});
export type BackupPolicy = z.output<typeof backupPolicySchema>;
export type BackupPolicyInput = z.input<typeof backupPolicySchema>;

/** `GET …/backup-policy`: the stored policy (described without the input's defaults and trimming). */
export const backupPolicyViewSchema = z.object({
  retention: z.object({
    keepLast: z.number(),
    keepDaily: z.number(),
    keepWeekly: z.number(),
    keepMonthly: z.number(),
  }),
  schedule: z.string().nullable(),
  hooks: z.union([
    z.object({
      pre: z.array(z.string()),
      waitFor: z.string().optional(),
      post: z.array(z.string()),
      timeoutSeconds: z.number(),
    }),
    z.literal(false),
    z.null(),
  ]),
  limits: z.object({
    maxSnapshots: z.number().nullable(),
    maxRepositoryBytes: z.number().nullable(),
    minIntervalSeconds: z.number().nullable(),
  }),
});
export type BackupPolicyView = z.infer<typeof backupPolicyViewSchema>;

// ---- the node's destination (admin) ----

const text = (max: number) => z.string().trim().min(1).max(max);
/** Write-only: omitted on an update keeps the stored value; never answered back. */
const secret = z.string().min(1).max(16_384).optional();

const caCert = z
  .string()
  .max(65_536)
  .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/, 'a PEM certificate')
  .optional();

export const backupDestinationInputSchema = z.discriminatedUnion('type', [
  /** A folder on the node; empty = `<dataDir>/backups`. */
  z.object({ type: z.literal('local'), path: z.string().max(4096).default('') }),
  /** OpenSSH SFTP: key login, the server's host key pinned (a known_hosts line without the host name). */
  z.object({
    type: z.literal('sftp'),
    // Both end up as words of the ssh command restic runs: no spaces, no leading `-` (no ssh options).
    host: z
      .string()
      .max(253)
      .regex(/^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/, 'a host name or address'),
    port: z.number().int().min(1).max(65535).default(22),
    user: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'a user name'),
    path: text(4096),
    /** One known_hosts key: `ssh-ed25519 AAAA…` (type and base64, no host, one line). */
    hostKey: z
      .string()
      .trim()
      .max(16_384)
      .regex(/^[a-z0-9@.-]+ [A-Za-z0-9+/]+=*$/, 'a key type and its base64, as in known_hosts'),
    privateKey: secret,
  }),
  /** An S3-compatible endpoint (`https://s3.example.com`), bucket and key prefix. */
  z.object({
    type: z.literal('s3'),
    endpoint: z.url({ protocol: /^https?$/ }),
    bucket: text(63),
    prefix: z.string().max(1024).default(''),
    region: z.string().max(64).default(''),
    accessKeyId: text(256),
    secretAccessKey: secret,
    /** PEM of the CA that signed the endpoint's certificate, when not a public one (restic's --cacert). */
    caCert: caCert,
  }),
  /** restic's REST server (`rest-server`, `rclone serve restic`), optionally with HTTP basic credentials. */
  z.object({
    type: z.literal('rest'),
    url: z.url({ protocol: /^https?$/ }),
    username: z.string().max(256).default(''),
    password: secret,
    caCert: caCert,
  }),
]);
export type BackupDestinationInput = z.output<typeof backupDestinationInputSchema>;
export type BackupDestinationType = BackupDestinationInput['type'];

/** The destination as answered: secrets left out, `secrets` names those that are stored. */
export const backupDestinationViewSchema = z.object({
  type: z.enum(['local', 'sftp', 's3', 'rest']),
  /** The fields of the type, secrets left out. */
  settings: z.record(z.string(), z.union([z.string(), z.number()])),
  secrets: z.array(z.string()),
});
export type BackupDestinationView = z.infer<typeof backupDestinationViewSchema>;

export const backupCheckResultSchema = z.object({
  at: z.number(),
  ok: z.boolean(),
  /** What restic reported (the first lines), when not ok. */
  error: z.string().optional(),
});
export type BackupCheckResult = z.infer<typeof backupCheckResultSchema>;

/** `GET /daemon/backups` (admin): the node's backup status — what the Node page shows. */
export const backupNodeStatusSchema = z.object({
  /** restic's version, or null when it is not installed (backups are then unavailable). */
  restic: z.string().nullable(),
  destination: backupDestinationViewSchema,
  lastCheck: backupCheckResultSchema.nullable(),
  lastPrune: backupCheckResultSchema.nullable(),
  nextCheck: z.number().nullable(),
  nextPrune: z.number().nullable(),
});
export type BackupNodeStatus = z.infer<typeof backupNodeStatusSchema>;
