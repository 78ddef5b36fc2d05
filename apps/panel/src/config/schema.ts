import { z } from 'zod';
import { DEFAULT_LOCALE, localeCodes } from '@hearth/contract/locales';
import { templatesConfigSchema } from '../modules/templates/templates.config';
import { metricsConfigSchema } from '../modules/metrics/metrics.config';

/** Log levels pino understands; `silent` turns logging off (tests). */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const logFormats = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];
export const emailProviders = ['none', 'smtp', 'mailgun', 'mailjet'] as const;
export type EmailProvider = (typeof emailProviders)[number];

const databaseUrl = z
  .string()
  .refine((url) => /^(sqlite:|postgres:\/\/|postgresql:\/\/|mysql:\/\/|mariadb:\/\/)/.test(url), {
    message: 'must start with sqlite:, postgres://, postgresql://, mysql:// or mariadb://',
  });

/** A port something listens on; 0 (any free port) is refused, since the panel must know where to call. */
const listenPort = z.number().int().min(1).max(65535);

/**
 * The config file's shape. Every key has a default so a missing file means "defaults".
 * Each key can be overridden by `HEARTH_<SECTION>_<KEY>` (camelCase key → SNAKE_CASE), e.g. `HEARTH_WEB_PORT`.
 */
export const configSchema = z.strictObject({
  web: z
    .strictObject({
      host: z.string().min(1).default('0.0.0.0'),
      port: z.number().int().min(0).max(65535).default(8080),
      bodyLimit: z.number().int().min(1024).default(1_048_576),
      trustProxy: z.boolean().default(false),
      /** Proxied websockets per server (all users); below the daemons' socket.maxPerServer (20). */
      socketsPerServer: z.number().int().min(1).max(1000).default(16),
      /** Proxied websockets per user on one server. */
      socketsPerUser: z.number().int().min(1).max(1000).default(5),
      /**
       * The web's resumable uploads send chunks of this size: keep it below the body limit of any proxy in
       * front of the panel (100 MB at Cloudflare; docs/files.md § Resumable uploads).
       */
      uploadChunkBytes: z
        .number()
        .int()
        .min(65_536)
        .default(50 * 1024 * 1024),
    })
    .prefault({}),
  panel: z
    .strictObject({
      dataDir: z.string().min(1).default('./data'),
      databaseUrl: databaseUrl.default('sqlite:./data/hearth.db'),
      masterUrl: z.string().default(''),
      companyName: z.string().default('Hearth'),
      defaultTheme: z.string().default('hearth'),
      defaultLocale: z.enum(localeCodes).default(DEFAULT_LOCALE),
      registrationEnabled: z.boolean().default(false),
      /** Off: the activity log records nothing and nodes' outboxes are not pulled (docs/activity.md). */
      activityEnabled: z.boolean().default(true),
      themesDir: z.string().default(''),
      webDir: z.string().default(''),
    })
    .prefault({}),
  email: z
    .strictObject({
      provider: z.enum(emailProviders).default('none'),
      from: z.string().default(''),
      domain: z.string().default(''),
      key: z.string().default(''),
      host: z.string().default(''),
      username: z.string().default(''),
      password: z.string().default(''),
      mailgunBaseUrl: z.url().default('https://api.mailgun.net'),
      mailjetBaseUrl: z.url().default('https://api.mailjet.com'),
    })
    .prefault({}),
  /** The local node `hearth start` runs beside the panel (docs/configuration.md § Local node). */
  node: z
    .strictObject({
      /** Where the panel reaches the node; loopback, since the link is plain HTTP (docs/security.md § Node link). */
      host: z.string().min(1).default('127.0.0.1'),
      port: listenPort.default(5656),
      /** SFTP faces the users: every address by default. */
      sftpHost: z.string().min(1).default('0.0.0.0'),
      sftpPort: listenPort.default(5657),
    })
    .prefault({}),
  /** Nodes that dial in to the panel (docs/configuration.md § Outbound nodes). */
  link: z
    .strictObject({
      /** Where the panel listens to relay SFTP to each outbound node (on the node's SFTP port). */
      sftpRelayHost: z.string().min(1).default('0.0.0.0'),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(logLevels).default('info'),
      /** One line per HTTP request; also on at level debug or trace. */
      accessLog: z.boolean().default(false),
      /** `auto`: short human lines on a terminal, JSON lines otherwise (journald, files, pipes). */
      format: z.enum(logFormats).default('auto'),
    })
    .prefault({}),
  templates: templatesConfigSchema,
  metrics: metricsConfigSchema,
});

export type PanelConfig = z.infer<typeof configSchema>;
export type ConfigSection = keyof PanelConfig;

export function defaultConfig(): PanelConfig {
  return configSchema.parse({});
}
