/**
 * Alerts' wire (docs/alerts.md): a rule is a condition (what to watch), a channel (where to tell) and a scope
 * (one server, or every server when `serverId` is null — administrators only). Deliveries are the log of what
 * was sent for a rule. A webhook's signing secret is write-only: it is answered once, when the rule is
 * created, and afterwards only `hasSecret` says that one is stored.
 */
import { z } from 'zod';

/** Minutes of a window (crash loop, threshold held, server empty): one minute to one day. */
const minutes = z.number().int().min(1).max(1440);

/** The longest console pattern; patterns are literal text or a glob (`*`, `?`), never a regular expression. */
export const ALERT_PATTERN_MAX = 200;

export const alertConditionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('crash') }),
  z.strictObject({ type: z.literal('crashLoop'), count: z.number().int().min(2).max(100), minutes }),
  z.strictObject({ type: z.literal('nodeOffline') }),
  z.strictObject({ type: z.literal('nodeOnline') }),
  z.strictObject({ type: z.literal('backupFailed') }),
  /** CPU in percent of one core (a server may use several: up to 10,000). */
  z.strictObject({ type: z.literal('cpuAbove'), threshold: z.number().min(1).max(10_000), minutes }),
  /** Memory and disk in MiB. */
  z.strictObject({ type: z.literal('memoryAbove'), threshold: z.number().min(1).max(16_777_216), minutes }),
  z.strictObject({ type: z.literal('diskAbove'), threshold: z.number().min(1).max(1_073_741_824), minutes }),
  z.strictObject({ type: z.literal('serverEmpty'), minutes }),
  z.strictObject({
    type: z.literal('consoleMatch'),
    pattern: z.string().min(1).max(ALERT_PATTERN_MAX),
    /** `literal`: the line contains the text; `glob`: the whole line matches, `*` any run, `?` one character. */
    mode: z.enum(['literal', 'glob']).default('literal'),
  }),
]);
export type AlertCondition = z.infer<typeof alertConditionSchema>;
export type AlertConditionType = AlertCondition['type'];
export const alertConditionTypes = [
  'crash',
  'crashLoop',
  'nodeOffline',
  'nodeOnline',
  'backupFailed',
  'cpuAbove',
  'memoryAbove',
  'diskAbove',
  'serverEmpty',
  'consoleMatch',
] as const satisfies readonly AlertConditionType[];

/** Conditions about a node, not a server: only global rules (no `serverId`) may use them. */
export const nodeConditionTypes: readonly AlertConditionType[] = ['nodeOffline', 'nodeOnline'];

export const webhookFormats = ['json', 'discord', 'slack'] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

const webhookUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s/?#]+/.test(v) && URL.canParse(v), { params: { code: 'ErrFieldInvalid' } });
/** A signing secret: printable, 16 to 256 characters. */
const secret = z
  .string()
  .min(16)
  .max(256)
  .refine((v) => /^[\x21-\x7e]+$/.test(v), { params: { code: 'ErrFieldMustBePrintable' } });

export const alertChannelInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('webhook'),
    url: webhookUrl,
    format: z.enum(webhookFormats).default('json'),
    /** Only for `json` (Discord and Slack authenticate by the URL). Omitted on create: the panel makes one. */
    secret: secret.optional(),
  }),
  z.strictObject({ kind: z.literal('email'), to: z.email().max(191) }),
]);
export type AlertChannelInput = z.infer<typeof alertChannelInputSchema>;

export const alertChannelSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('webhook'),
    url: z.string(),
    format: z.enum(webhookFormats),
    hasSecret: z.boolean(),
  }),
  z.object({ kind: z.literal('email'), to: z.string() }),
]);
export type AlertChannel = z.infer<typeof alertChannelSchema>;

const name = z.string().trim().min(1).max(100);

/** `POST /api/alerts` and `PUT /api/alerts/{id}` (a PUT without `channel.secret` keeps the stored one). */
export const alertRuleInputSchema = z.strictObject({
  name,
  enabled: z.boolean().default(true),
  /** Null or absent: every server (administrators only). */
  serverId: z.string().min(1).max(64).nullable().optional(),
  condition: alertConditionSchema,
  channel: alertChannelInputSchema,
});
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;

/** `POST /api/servers/{id}/alerts`: the path names the server. */
export const serverAlertRuleInputSchema = alertRuleInputSchema.omit({ serverId: true });
export type ServerAlertRuleInput = z.infer<typeof serverAlertRuleInputSchema>;

export const alertRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  serverId: z.string().nullable(),
  condition: alertConditionSchema,
  channel: alertChannelSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** The create answer: the rule, and its webhook secret in clear this one time. */
export const alertRuleCreatedSchema = alertRuleSchema.extend({ secret: z.string().optional() });
export type AlertRuleCreated = z.infer<typeof alertRuleCreatedSchema>;

export const alertRuleListSchema = z.object({ rules: z.array(alertRuleSchema) });
export type AlertRuleList = z.infer<typeof alertRuleListSchema>;

export const alertDeliveryStatuses = ['pending', 'delivered', 'failed', 'suppressed'] as const;
export type AlertDeliveryStatus = (typeof alertDeliveryStatuses)[number];

export const alertDeliverySchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  time: z.number(),
  /** What happened: a condition type, `test`, or `summary` (the suppressed count after a quiet minute). */
  event: z.string(),
  status: z.enum(alertDeliveryStatuses),
  attempts: z.number(),
  lastError: z.string().nullable(),
  updatedAt: z.number(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

export const ALERT_DELIVERIES_MAX = 200;
export const alertDeliveriesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(ALERT_DELIVERIES_MAX).default(50),
});
export type AlertDeliveriesQuery = z.infer<typeof alertDeliveriesQuerySchema>;
export const alertDeliveryListSchema = z.object({ deliveries: z.array(alertDeliverySchema) });
export type AlertDeliveryList = z.infer<typeof alertDeliveryListSchema>;

/** The event a webhook of format `json` carries (docs/alerts.md § Payloads). */
export interface AlertEvent {
  id: string;
  rule: { id: string; name: string };
  type: AlertConditionType | 'test' | 'summary';
  time: number;
  serverId: string | null;
  nodeId: string | null;
  /** One line for people (the Discord/Slack text and the e-mail subject). */
  title: string;
  details: Record<string, unknown>;
}
