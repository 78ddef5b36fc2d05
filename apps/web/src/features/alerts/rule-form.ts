/**
 * The rule dialog's model (docs/alerts.md): what the form holds, how a stored rule becomes a form and a form the
 * request body, and which fields each condition needs with the ranges the contract's schema allows. Pure: the
 * dialog and the unit test share it.
 */
import {
  ALERT_PATTERN_MAX,
  alertConditionSchema,
  alertConditionTypes,
  nodeConditionTypes,
  type AlertCondition,
  type AlertConditionType,
  type AlertRule,
  type AlertRuleInput,
  type WebhookFormat,
} from '@hearth/contract';

export type NumberField = 'count' | 'minutes' | 'threshold';
export type SecretMode = 'generate' | 'type' | 'keep';

export interface RuleForm {
  name: string;
  enabled: boolean;
  /** '' for every server (administrators only). */
  serverId: string;
  type: AlertConditionType;
  count: number;
  minutes: number;
  threshold: number;
  pattern: string;
  mode: 'literal' | 'glob';
  kind: 'webhook' | 'email';
  url: string;
  format: WebhookFormat;
  secretMode: SecretMode;
  secret: string;
  /** The stored rule already has a secret (edit only): "keep" is offered. */
  hasSecret: boolean;
  to: string;
}

export interface Range {
  min: number;
  max: number;
}

/** The number fields a condition type takes, in form order, with the schema's bounds. */
export function numberFields(type: AlertConditionType): [NumberField, Range][] {
  const option = alertConditionSchema.options.find((o) => o.shape.type.value === type);
  if (!option) return [];
  const fields: [NumberField, Range][] = [];
  for (const [key, schema] of Object.entries(option.shape)) {
    if (key !== 'count' && key !== 'minutes' && key !== 'threshold') continue;
    const { minValue, maxValue } = schema as { minValue: number | null; maxValue: number | null };
    fields.push([key, { min: minValue ?? 0, max: maxValue ?? Number.MAX_SAFE_INTEGER }]);
  }
  // The threshold reads first ("above 90 % for 5 minutes").
  return fields.sort(([a], [b]) => order(a) - order(b));
}

const order = (field: NumberField) => ['count', 'threshold', 'minutes'].indexOf(field);

export const PATTERN_MAX = ALERT_PATTERN_MAX;

/** The condition types offered: a server's rules never watch nodes. */
export function offeredTypes(serverScoped: boolean): AlertConditionType[] {
  return alertConditionTypes.filter((type) => !serverScoped || !nodeConditionTypes.includes(type));
}

export function newRuleForm(serverId = ''): RuleForm {
  return {
    name: '',
    enabled: true,
    serverId,
    type: 'crash',
    count: 3,
    minutes: 10,
    threshold: 90,
    pattern: '',
    mode: 'literal',
    kind: 'webhook',
    url: '',
    format: 'json',
    secretMode: 'generate',
    secret: '',
    hasSecret: false,
    to: '',
  };
}

export function ruleToForm(rule: AlertRule): RuleForm {
  const form = { ...newRuleForm(rule.serverId ?? ''), name: rule.name, enabled: rule.enabled };
  const c = rule.condition;
  const condition = {
    type: c.type,
    ...('count' in c ? { count: c.count } : {}),
    ...('minutes' in c ? { minutes: c.minutes } : {}),
    ...('threshold' in c ? { threshold: c.threshold } : {}),
    ...('pattern' in c ? { pattern: c.pattern, mode: c.mode } : {}),
  };
  const ch = rule.channel;
  const channel =
    ch.kind === 'webhook'
      ? {
          kind: ch.kind,
          url: ch.url,
          format: ch.format,
          hasSecret: ch.hasSecret,
          secretMode: ch.hasSecret ? 'keep' : 'generate',
        }
      : { kind: ch.kind, to: ch.to };
  return { ...form, ...condition, ...channel } as RuleForm;
}

function conditionOf(form: RuleForm): AlertCondition {
  const type = form.type;
  switch (type) {
    case 'crashLoop':
      return { type, count: form.count, minutes: form.minutes };
    case 'cpuAbove':
    case 'memoryAbove':
    case 'diskAbove':
      return { type, threshold: form.threshold, minutes: form.minutes };
    case 'serverEmpty':
      return { type, minutes: form.minutes };
    case 'consoleMatch':
      return { type, pattern: form.pattern, mode: form.mode };
    case 'crash':
    case 'nodeOffline':
    case 'nodeOnline':
    case 'backupFailed':
      return { type };
  }
}

/** 32 random bytes in base64url, as the panel makes them (docs/alerts.md § Verifying a signed webhook). */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The secret to send: typed, kept (none sent: the panel keeps it), or generated. A new rule's generated secret is
 * left to the panel, which answers it once; on edit the web app makes it, since a PUT does not answer it.
 */
function secretOf(form: RuleForm, editing: boolean): string | undefined {
  if (form.format !== 'json') return undefined;
  if (form.secretMode === 'type') return form.secret;
  if (form.secretMode === 'generate' && editing) return form.secret || undefined;
  return undefined;
}

/** On edit, a secret to generate is made before saving, so the dialog can show it once afterwards. */
export function withGeneratedSecret(form: RuleForm, editing: boolean): RuleForm {
  const needed =
    editing && form.kind === 'webhook' && form.format === 'json' && form.secretMode === 'generate';
  return needed ? { ...form, secret: generateSecret() } : form;
}

/** The request body; `withServer` false for a server's own routes (the path names the server). */
export function ruleBody(form: RuleForm, editing: boolean, withServer: boolean): AlertRuleInput {
  const secret = secretOf(form, editing);
  const channel: AlertRuleInput['channel'] =
    form.kind === 'webhook'
      ? { kind: 'webhook', url: form.url.trim(), format: form.format, ...(secret ? { secret } : {}) }
      : { kind: 'email', to: form.to.trim() };
  return {
    name: form.name,
    enabled: form.enabled,
    ...(withServer ? { serverId: form.serverId || null } : {}),
    condition: conditionOf(form),
    channel,
  };
}

/** What must be filled before Save is offered (ranges and formats are the panel's to refuse, per field). */
export function canSave(form: RuleForm): boolean {
  if (!form.name.trim()) return false;
  if (form.type === 'consoleMatch' && !form.pattern) return false;
  if (form.kind === 'email') return Boolean(form.to.trim());
  if (!form.url.trim()) return false;
  return !(form.format === 'json' && form.secretMode === 'type' && !form.secret);
}
