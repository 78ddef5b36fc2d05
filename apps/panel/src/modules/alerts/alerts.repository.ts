import type { Db } from '../../db/connect';
import type { AlertDeliveriesTable, AlertRulesTable, AlertTargetsTable } from '../../db/types';

export type AlertRuleRow = AlertRulesTable;
export type AlertTargetRow = AlertTargetsTable;
export type AlertDeliveryRow = AlertDeliveriesTable;
export type AlertRuleWithTarget = { rule: AlertRuleRow; target: AlertTargetRow };

/** The alert tables: a rule and its target are written together in one transaction (never half a rule). */
export class AlertsRepository {
  constructor(private readonly db: Db) {}

  async list(serverId?: string): Promise<AlertRuleWithTarget[]> {
    let query = this.db.kysely.selectFrom('alert_rules').selectAll().orderBy('created_at').orderBy('id');
    if (serverId !== undefined) query = query.where('server_id', '=', serverId);
    const rules = await query.execute();
    if (rules.length === 0) return [];
    const targets = await this.db.kysely
      .selectFrom('alert_targets')
      .selectAll()
      .where(
        'rule_id',
        'in',
        rules.map((r) => r.id),
      )
      .execute();
    const byRule = new Map(targets.map((t) => [t.rule_id, t]));
    return rules.flatMap((rule) => {
      const target = byRule.get(rule.id);
      return target ? [{ rule, target }] : [];
    });
  }

  async get(id: string): Promise<AlertRuleWithTarget | undefined> {
    const rule = await this.db.kysely
      .selectFrom('alert_rules')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!rule) return undefined;
    const target = await this.db.kysely
      .selectFrom('alert_targets')
      .selectAll()
      .where('rule_id', '=', id)
      .executeTakeFirst();
    return target ? { rule, target } : undefined;
  }

  async insert(rule: AlertRuleRow, target: AlertTargetRow): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('alert_rules').values(rule).execute();
      await trx.insertInto('alert_targets').values(target).execute();
    });
  }

  async update(rule: AlertRuleRow, target: AlertTargetRow): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const { id, ...rest } = rule;
      await trx.updateTable('alert_rules').set(rest).where('id', '=', id).execute();
      const { rule_id, ...fields } = target;
      await trx.updateTable('alert_targets').set(fields).where('rule_id', '=', rule_id).execute();
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('alert_deliveries').where('rule_id', '=', id).execute();
      await trx.deleteFrom('alert_targets').where('rule_id', '=', id).execute();
      const result = await trx.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async insertDelivery(row: AlertDeliveryRow): Promise<void> {
    await this.db.kysely.insertInto('alert_deliveries').values(row).execute();
  }

  async updateDelivery(
    id: string,
    fields: Pick<AlertDeliveryRow, 'status' | 'attempts' | 'last_error' | 'updated_at'>,
  ): Promise<void> {
    await this.db.kysely.updateTable('alert_deliveries').set(fields).where('id', '=', id).execute();
  }

  deliveries(ruleId: string, limit: number): Promise<AlertDeliveryRow[]> {
    return this.db.kysely
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('rule_id', '=', ruleId)
      .orderBy('time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Keeps a rule's newest `keep` deliveries (the log is bounded per rule). */
  async trimDeliveries(ruleId: string, keep: number): Promise<void> {
    const cutoff = await this.db.kysely
      .selectFrom('alert_deliveries')
      .select(['time'])
      .where('rule_id', '=', ruleId)
      .orderBy('time', 'desc')
      .offset(keep)
      .limit(1)
      .executeTakeFirst();
    if (!cutoff) return;
    await this.db.kysely
      .deleteFrom('alert_deliveries')
      .where('rule_id', '=', ruleId)
      .where('time', '<=', Number(cutoff.time))
      .execute();
  }
}
