/**
 * Daemon configuration (`node.json`, shown by the panel's deployment instructions). Every key has a default
 * except the panel's public key; `HEARTH_DAEMON_<PATH>` env variables override single keys (see load.ts).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { backupsConfigSchema } from '../backups/config';

const ms = (def: number) => z.number().int().nonnegative().default(def);
const bytes = (def: number) => z.number().int().positive().default(def);

const consoleSchema = z.strictObject({
  /** Per-server console history, in bytes of text (oldest chunks evicted first). */
  bufferBytes: bytes(1024 * 1024),
  /** Output is coalesced and sent to subscribers once per tick. */
  flushIntervalMs: z.number().int().min(1).default(10),
  /** Output queued for one slow subscriber beyond this is dropped (oldest first) and reported. */
  subscriberQueueBytes: bytes(1024 * 1024),
});

const socketSchema = z.strictObject({
  maxMessageBytes: bytes(16 * 1024),
  messagesPerSecond: z.number().int().positive().default(20),
  maxPerServer: z.number().int().positive().default(20),
});

const powerSchema = z.strictObject({
  /** After a stop is sent, the server is killed if it has not exited within this time. */
  stopTimeoutMs: ms(30_000),
  /** On daemon shutdown, servers get this long to stop before they are killed. */
  shutdownTimeoutMs: ms(30_000),
  /** Delay between autostarts at daemon boot. */
  autostartIntervalMs: ms(1_000),
});

const crashSchema = z.strictObject({
  /** A run shorter than this is unstable. */
  minUptimeMs: ms(10_000),
  /** After this many unstable runs in a row the daemon stops restarting. */
  maxUnstableRuns: z.number().int().positive().default(5),
  backoffInitialMs: ms(1_000),
  backoffMaxMs: ms(60_000),
});

const downloadsSchema = z.strictObject({
  /** Allow downloads from loopback, private and link-local addresses (off: SSRF protection). */
  allowPrivateAddresses: z.boolean().default(false),
  maxBytes: bytes(2 * 1024 * 1024 * 1024),
  timeoutMs: ms(120_000),
  maxRedirects: z.number().int().nonnegative().default(5),
});

const upstreamSchema = z.strictObject({
  mojangManifestUrl: z.url().default('https://launchermeta.mojang.com/mc/game/version_manifest.json'),
  forgeMavenUrl: z.url().default('https://maven.minecraftforge.net'),
  spongeApiUrl: z.url().default('https://dl-api.spongepowered.org'),
  fabricMetaUrl: z.url().default('https://meta.fabricmc.net'),
});

const dockerSchema = z.strictObject({
  /** The Docker Engine API socket (docker environment). */
  socketPath: z.string().min(1).default('/var/run/docker.sock'),
  /** `uid:gid` containers run as; empty = the daemon's own ids, or 1000:1000 when the daemon runs as root. */
  user: z
    .string()
    .regex(/^(\d+:\d+)?$/, 'uid:gid (numbers)')
    .default(''),
});

/** An IANA zone name (`Europe/Berlin`), checked against the runtime's zone data; empty = the system zone. */
const timeZone = z
  .string()
  .default('')
  .refine((zone) => zone === '' || isTimeZone(zone), 'an IANA time zone such as Europe/Berlin, or empty');

/** `10.0.0.5`, `::1`, `10.0.0.0/8` or `fd00::/8`. */
function isAddressOrRange(text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false; // RangeError: the zone is unknown
  }
}

const tasksSchema = z.strictObject({
  /** The zone task schedules are read in. */
  timeZone,
});

const filesSchema = z.strictObject({
  /** One upload (multipart field `file`) may not exceed this. */
  maxUploadBytes: bytes(10 * 1024 * 1024 * 1024),
  /** Extraction stops past this many bytes written or entries seen (archive bombs). */
  maxExtractBytes: bytes(4 * 1024 * 1024 * 1024),
  maxExtractEntries: z.number().int().positive().default(100_000),
  /** A resumable (tus) upload untouched this long is removed with its partial file (docs/files.md). */
  uploadExpiryMs: ms(24 * 60 * 60_000),
  /** The declared lengths of one server's unfinished tus uploads may not add up to more than this. */
  uploadQuotaBytes: bytes(20 * 1024 * 1024 * 1024),
});

const sftpSchema = z.strictObject({
  enabled: z.boolean().default(true),
  host: z.string().min(1).default('0.0.0.0'),
  /** 0 picks a free port (tests). */
  port: z.number().int().min(0).max(65535).default(5657),
  /** The node credential's secret from the deployment instructions (client id `.node_<nodeId>`). */
  clientSecret: z.string().default(''),
  /** Open sessions re-check the login with the panel this often (access removed, password changed). */
  recheckMs: ms(60_000),
  /** Failed logins allowed per minute, per client address and per account. */
  failuresPerMinute: z.number().int().positive().default(10),
});

/**
 * How standard/tty servers are kept apart from each other and from Hearth (docs/security.md "Isolation model").
 * The id range defaults to 65536–99999: above every 16-bit id (`nobody` is 65534) and systemd's DynamicUser range
 * (61184–65519), below the subordinate ids `useradd` hands out for user namespaces (from 100000 in blocks of
 * 65536, /etc/subuid) and far below systemd-nspawn's container ids (from 524288), so no account, container or
 * rootless runtime of a usual Debian host owns these ids. The daemon warns at start when one does.
 */
const isolationSchema = z
  .strictObject({
    /** First uid (and gid) handed to a server; below 1000 are system accounts. */
    idRangeStart: z.number().int().min(1000).max(2_147_483_646).default(65_536),
    /** Last uid (and gid), inclusive. Daemons on one host may share a range (isolation/id-registry.ts). */
    idRangeEnd: z.number().int().min(1000).max(2_147_483_646).default(99_999),
    /** `auto`: wrap servers in /usr/bin/bwrap when it is installed and works; `required`: refuse to start without. */
    bubblewrap: z.enum(['auto', 'off', 'required']).default('auto'),
    /** More paths a bubblewrap sandbox hides (a panel database or config kept outside the data dir). */
    hiddenPaths: z.array(z.string().min(1)).default([]),
  })
  .refine((i) => i.idRangeEnd >= i.idRangeStart, {
    message: 'idRangeEnd must not be below idRangeStart',
    path: ['idRangeEnd'],
  });

/**
 * HTTPS for the panel ↔ node link (docs/security.md § Node link). The operator's certificate files take
 * precedence; otherwise the certificate and key the panel generated for the node, carried in the deployment
 * config (the panel pins that certificate). With neither, the daemon serves plain HTTP (a loopback node, or a
 * node its administrator marked `plain`).
 */
const tlsSchema = z
  .strictObject({
    /** The operator's certificate (PEM, leaf first, then its chain) and private key files. */
    certFile: z.string().default(''),
    keyFile: z.string().default(''),
    /** The certificate and key from the deployment instructions (PEM text). */
    certPem: z.string().default(''),
    keyPem: z.string().default(''),
  })
  .superRefine((tls, ctx) => {
    const pairs = [
      ['certFile', 'keyFile'],
      ['certPem', 'keyPem'],
    ] as const;
    for (const [cert, key] of pairs) {
      if (Boolean(tls[cert]) !== Boolean(tls[key])) {
        const [missing, other] = tls[cert] ? [key, cert] : [cert, key];
        ctx.addIssue({ code: 'custom', path: [missing], message: `is needed with ${other}` });
      }
    }
    if (tls.certPem && !tls.certPem.includes('BEGIN CERTIFICATE'))
      ctx.addIssue({ code: 'custom', path: ['certPem'], message: 'a PEM certificate' });
    if (tls.keyPem && !tls.keyPem.includes('PRIVATE KEY'))
      ctx.addIssue({ code: 'custom', path: ['keyPem'], message: 'a PEM private key' });
  });

/**
 * `GET /metrics` for Prometheus (docs/daemon.md § Metrics): off by default (404); when on, a scraper sends
 * `Authorization: Bearer <token>` or comes from an address in `allow` (IPs or CIDR ranges).
 */
const metricsSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    token: z.string().default(''),
    allow: z
      .preprocess(
        (v) =>
          typeof v === 'string'
            ? v
                .split(',')
                .map((a) => a.trim())
                .filter(Boolean)
            : v,
        z.array(z.string().refine(isAddressOrRange, 'an IP address or a CIDR range such as 10.0.0.0/8')),
      )
      .default([]),
  })
  .refine((m) => !m.enabled || m.token !== '' || m.allow.length > 0, {
    message: 'metrics.enabled needs a token or an allow list',
    path: ['token'],
  });

/** The one sampling of every server behind /metrics and the metric history (docs/daemon.md § Metric history). */
const statsSchema = z.strictObject({
  /** How often each server's CPU, memory, disk and players are sampled (history averages them per minute). */
  sampleIntervalMs: z.number().int().min(100).default(15_000),
  /** How often each server's folder size is measured, in the background. */
  diskIntervalMs: z.number().int().min(100).default(300_000),
});

/** Player counts from templates' `query` (docs/daemon.md § Player counts). */
const playersSchema = z.strictObject({
  intervalMs: z.number().int().min(100).default(30_000),
  /** One query's budget; a server that does not answer in time has no count. */
  timeoutMs: z.number().int().min(100).default(3_000),
  /** The loopback port Minetest servers announce to (the daemon is their server list); 0 = any free port. */
  serverListPort: z.number().int().min(0).max(65535).default(5658),
});

export const daemonConfigSchema = z.strictObject({
  /** Must match the node id the panel puts in token audiences (`hearth-daemon:<nodeId>`). */
  nodeId: z.string().min(1).default('local'),
  host: z.string().min(1).default('0.0.0.0'),
  port: z.number().int().min(0).max(65535).default(5656),
  dataDir: z.string().min(1).default('./data'),
  /** Definitions (`<id>.json`) and server folders (`<id>/`); default `<dataDir>/servers`. */
  serversDir: z.string().min(1).optional(),
  panelUrl: z.string().default(''),
  /**
   * Who opens the link: `inbound`, the panel dials this daemon's port; `outbound`, the daemon dials `panelUrl`
   * and the panel's calls come through that connection (docs/daemon.md § Outbound link), so no inbound port is
   * needed — the listeners then default to loopback.
   */
  link: z.enum(['inbound', 'outbound']).default('inbound'),
  /** Wait between outbound link attempts: doubling from `minMs` up to `maxMs`, with jitter. */
  linkReconnect: z
    .strictObject({
      minMs: z.number().int().min(100).max(60_000).default(1000),
      maxMs: z.number().int().min(1000).max(600_000).default(30_000),
    })
    .prefault({}),
  /** The panel's ES256 public key (SPKI PEM); the daemon verifies every request with it. */
  publicKeyPem: z.string().min(1).includes('BEGIN PUBLIC KEY'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** One log line per HTTP request; also on at logLevel debug or trace. */
  accessLog: z.boolean().default(false),
  console: consoleSchema.prefault({}),
  socket: socketSchema.prefault({}),
  power: powerSchema.prefault({}),
  crash: crashSchema.prefault({}),
  downloads: downloadsSchema.prefault({}),
  upstream: upstreamSchema.prefault({}),
  docker: dockerSchema.prefault({}),
  files: filesSchema.prefault({}),
  sftp: sftpSchema.prefault({}),
  tasks: tasksSchema.prefault({}),
  backups: backupsConfigSchema.prefault({}),
  tls: tlsSchema.prefault({}),
  isolation: isolationSchema.prefault({}),
  metrics: metricsSchema.prefault({}),
  stats: statsSchema.prefault({}),
  players: playersSchema.prefault({}),
});

export type DaemonConfig = z.infer<typeof daemonConfigSchema>;
export type DaemonConfigInput = z.input<typeof daemonConfigSchema>;
