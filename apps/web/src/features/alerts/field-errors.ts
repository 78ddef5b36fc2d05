/**
 * A refused save → the form field it is about (docs/alerts.md § Rules): schema errors name their field in
 * `metadata.field` (`channel.url`, `condition.minutes`); ErrAlertTargetRefused is about the URL; ErrAlertRuleInvalid
 * about the secret (an unsigned format) or the condition (a node condition on a server rule).
 */
import { ApiError, catalogueCodeFor } from '../../api/errors';

export type RuleField =
  | 'name'
  | 'serverId'
  | 'type'
  | 'count'
  | 'minutes'
  | 'threshold'
  | 'pattern'
  | 'mode'
  | 'url'
  | 'format'
  | 'secret'
  | 'to';

const byPath: Record<string, RuleField> = {
  name: 'name',
  serverId: 'serverId',
  'condition.type': 'type',
  'condition.count': 'count',
  'condition.minutes': 'minutes',
  'condition.threshold': 'threshold',
  'condition.pattern': 'pattern',
  'condition.mode': 'mode',
  condition: 'type',
  'channel.url': 'url',
  'channel.format': 'format',
  'channel.secret': 'secret',
  'channel.to': 'to',
  channel: 'url',
};

export interface RuleError {
  /** The field it is shown under; none: above the dialog's buttons. */
  field?: RuleField;
  /** i18n key and values of the text. */
  key: string;
  values: Record<string, unknown>;
}

/** The error to show for a failed save, or undefined when it is no catalogued 400 (the toast handles it). */
export function ruleErrorOf(err: unknown): RuleError | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const code = catalogueCodeFor(err);
  const values = { ...err.metadata };
  const key = `errors.${code}`;
  // The chosen server was deleted meanwhile.
  if (code === 'ErrServerNotFound') return { field: 'serverId', key, values };
  if (!code || err.status !== 400) return undefined;
  if (code === 'ErrAlertTargetRefused') return { field: 'url', key, values };
  if (code === 'ErrAlertRuleInvalid') {
    const reason = typeof values.reason === 'string' ? values.reason : '';
    return { field: /signed|secret/.test(reason) ? 'secret' : 'type', key, values };
  }
  const path = typeof values.field === 'string' ? values.field : '';
  return { field: byPath[path], key, values };
}
