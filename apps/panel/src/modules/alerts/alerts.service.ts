/**
 * Alert rules (docs/alerts.md): create, read, change and delete them, send a test, read the delivery log.
 * A rule's scope is checked here: a server's users reach only their server's rules (`scope`), never a global
 * one, and their webhooks never reach private addresses whatever the admin setting says. A webhook secret is
 * answered once, on create; afterwards only `hasSecret` shows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AppError,
  nodeConditionTypes,
  type AlertChannel,
  type AlertChannelInput,
  type AlertCondition,
  type AlertDelivery,
  type AlertRule,
  type AlertRuleCreated,
  type AlertRuleInput,
} from '@hearth/contract';
import type { AlertRuleWithTarget, AlertsRepository, AlertTargetRow } from './alerts.repository';
import type { AlertEngine } from './engine';
import { checkWebhookUrl } from './webhook';

/** Who asks: an administrator (every rule) or a server's user (that server's rules only). */
export interface AlertScope {
  serverId: string | null;
  userId: string;
}

export interface AlertsServiceDeps {
  repo: AlertsRepository;
  engine: AlertEngine;
  allowPrivateTargets: () => Promise<boolean>;
  serverExists: (id: string) => Promise<boolean>;
}

export class AlertsService {
  constructor(private readonly deps: AlertsServiceDeps) {}

  async list(scope: AlertScope): Promise<AlertRule[]> {
    const rows = await this.deps.repo.list(scope.serverId ?? undefined);
    return rows.map(toRule);
  }

  async get(id: string, scope: AlertScope): Promise<AlertRule> {
    return toRule(await this.#find(id, scope));
  }

  async create(input: AlertRuleInput, scope: AlertScope): Promise<AlertRuleCreated> {
    const serverId = scope.serverId ?? input.serverId ?? null;
    await this.#validate(input, serverId, scope);
    const now = Date.now();
    const id = randomUUID();
    const secret =
      input.channel.kind === 'webhook' && input.channel.format === 'json'
        ? (input.channel.secret ?? randomBytes(32).toString('base64url'))
        : null;
    const rule = {
      id,
      name: input.name,
      enabled: input.enabled ? 1 : 0,
      server_id: serverId,
      condition: JSON.stringify(input.condition),
      created_by: scope.userId,
      created_at: now,
      updated_at: now,
    };
    const target = targetOf(id, input.channel, secret);
    await this.deps.repo.insert(rule, target);
    this.deps.engine.invalidate();
    return { ...toRule({ rule, target }), ...(secret ? { secret } : {}) };
  }

  async update(id: string, input: AlertRuleInput, scope: AlertScope): Promise<AlertRule> {
    const current = await this.#find(id, scope);
    const serverId =
      scope.serverId ?? (input.serverId === undefined ? current.rule.server_id : input.serverId);
    await this.#validate(input, serverId, scope);
    const kept = current.target.kind === 'webhook' ? current.target.secret : null;
    const secret =
      input.channel.kind === 'webhook' && input.channel.format === 'json'
        ? (input.channel.secret ?? kept ?? randomBytes(32).toString('base64url'))
        : null;
    const rule = {
      ...current.rule,
      name: input.name,
      enabled: input.enabled ? 1 : 0,
      server_id: serverId,
      condition: JSON.stringify(input.condition),
      updated_at: Date.now(),
    };
    const target = targetOf(id, input.channel, secret);
    await this.deps.repo.update(rule, target);
    this.deps.engine.invalidate(id);
    return toRule({ rule, target });
  }

  async delete(id: string, scope: AlertScope): Promise<void> {
    await this.#find(id, scope);
    await this.deps.repo.delete(id);
    this.deps.engine.invalidate(id);
  }

  async test(id: string, scope: AlertScope): Promise<{ deliveryId: string }> {
    return { deliveryId: await this.deps.engine.test(await this.#find(id, scope)) };
  }

  async deliveries(id: string, scope: AlertScope, limit: number): Promise<AlertDelivery[]> {
    await this.#find(id, scope);
    const rows = await this.deps.repo.deliveries(id, limit);
    return rows.map((r) => ({
      id: r.id,
      ruleId: r.rule_id,
      time: Number(r.time),
      event: r.event,
      status: r.status as AlertDelivery['status'],
      attempts: Number(r.attempts),
      lastError: r.last_error,
      updatedAt: Number(r.updated_at),
    }));
  }

  /** A rule outside the caller's scope does not exist for them (404, as for a server they cannot see). */
  async #find(id: string, scope: AlertScope): Promise<AlertRuleWithTarget> {
    const found = await this.deps.repo.get(id);
    if (!found || (scope.serverId !== null && found.rule.server_id !== scope.serverId))
      throw new AppError('ErrAlertNotFound');
    return found;
  }

  async #validate(input: AlertRuleInput, serverId: string | null, scope: AlertScope): Promise<void> {
    if (serverId !== null && nodeConditionTypes.includes(input.condition.type))
      throw new AppError('ErrAlertRuleInvalid', {
        reason: `${input.condition.type} rules watch every server`,
      });
    if (serverId !== null && scope.serverId === null && !(await this.deps.serverExists(serverId)))
      throw new AppError('ErrServerNotFound');
    if (input.channel.kind === 'webhook') {
      if (input.channel.format !== 'json' && input.channel.secret !== undefined)
        throw new AppError('ErrAlertRuleInvalid', { reason: 'only json webhooks are signed' });
      checkWebhookUrl(input.channel.url, await this.#allowPrivate(serverId, scope));
    }
  }

  /** Private targets: only an admin's global rule, and only with the setting on (docs/alerts.md § SSRF). */
  async #allowPrivate(serverId: string | null, scope: AlertScope): Promise<boolean> {
    return scope.serverId === null && serverId === null && (await this.deps.allowPrivateTargets());
  }
}

function targetOf(ruleId: string, channel: AlertChannelInput, secret: string | null): AlertTargetRow {
  return channel.kind === 'webhook'
    ? { rule_id: ruleId, kind: 'webhook', address: channel.url, format: channel.format, secret }
    : { rule_id: ruleId, kind: 'email', address: channel.to, format: '', secret: null };
}

export function toRule({ rule, target }: AlertRuleWithTarget): AlertRule {
  const channel: AlertChannel =
    target.kind === 'webhook'
      ? {
          kind: 'webhook',
          url: target.address,
          format: target.format as 'json' | 'discord' | 'slack',
          hasSecret: Boolean(target.secret),
        }
      : { kind: 'email', to: target.address };
  return {
    id: rule.id,
    name: rule.name,
    enabled: Boolean(Number(rule.enabled)),
    serverId: rule.server_id,
    condition: JSON.parse(rule.condition) as AlertCondition,
    channel,
    createdAt: Number(rule.created_at),
    updatedAt: Number(rule.updated_at),
  };
}
