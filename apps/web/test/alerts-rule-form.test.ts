import {
  alertRuleInputSchema,
  serverAlertRuleInputSchema,
  type AlertRule,
  type ErrorMetadata,
} from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/errors';
import { ruleErrorOf } from '../src/features/alerts/field-errors';
import {
  canSave,
  newRuleForm,
  numberFields,
  offeredTypes,
  ruleBody,
  ruleToForm,
  withGeneratedSecret,
} from '../src/features/alerts/rule-form';

const rule: AlertRule = {
  id: 'r1',
  name: 'loops',
  enabled: true,
  serverId: 's1',
  condition: { type: 'crashLoop', count: 5, minutes: 10 },
  channel: { kind: 'webhook', url: 'https://hooks.example.com/x', format: 'json', hasSecret: true },
  createdAt: 1,
  updatedAt: 1,
};

const refused = (code: string, metadata: ErrorMetadata) =>
  new ApiError(400, code, metadata, { url: '/api/alerts', method: 'POST', headers: {} });

describe('the alert rule form', () => {
  it('takes each condition field and its range from the contract schema', () => {
    expect(numberFields('crashLoop')).toEqual([
      ['count', { min: 2, max: 100 }],
      ['minutes', { min: 1, max: 1440 }],
    ]);
    expect(numberFields('cpuAbove')).toEqual([
      ['threshold', { min: 1, max: 10_000 }],
      ['minutes', { min: 1, max: 1440 }],
    ]);
    expect(numberFields('crash')).toEqual([]);
  });

  it('offers no node condition on a server rule', () => {
    expect(offeredTypes(true)).not.toContain('nodeOffline');
    expect(offeredTypes(true)).not.toContain('nodeOnline');
    expect(offeredTypes(false)).toContain('nodeOffline');
  });

  it('turns a stored rule into a form and back into a body the contract accepts, keeping the secret', () => {
    const form = ruleToForm(rule);
    expect(form).toMatchObject({ type: 'crashLoop', count: 5, minutes: 10, secretMode: 'keep' });
    const body = ruleBody(form, true, true);
    expect(alertRuleInputSchema.parse(body)).toEqual({
      name: 'loops',
      enabled: true,
      serverId: 's1',
      condition: { type: 'crashLoop', count: 5, minutes: 10 },
      channel: { kind: 'webhook', url: 'https://hooks.example.com/x', format: 'json' },
    });
    // A server's own routes take no serverId (their schema is strict).
    expect(serverAlertRuleInputSchema.safeParse(ruleBody(form, true, false)).success).toBe(true);
  });

  it('leaves a new generated secret to the panel, and makes one itself on edit', () => {
    const fresh = { ...newRuleForm(), name: 'n', url: 'https://h.example.com/' };
    const created = ruleBody(withGeneratedSecret(fresh, false), false, true);
    expect(created.channel).toEqual({ kind: 'webhook', url: 'https://h.example.com/', format: 'json' });
    const edited = withGeneratedSecret({ ...ruleToForm(rule), secretMode: 'generate' }, true);
    expect(edited.secret).toMatch(/^[\w-]{43}$/);
    expect(ruleBody(edited, true, true).channel).toMatchObject({ secret: edited.secret });
    // Discord and Slack are not signed: no secret goes with them.
    const discord = ruleBody({ ...edited, format: 'discord' }, true, true);
    expect(discord.channel).not.toHaveProperty('secret');
  });

  it('saves only with a name, the pattern of a console rule and an address', () => {
    const form = { ...newRuleForm(), name: 'x' };
    expect(canSave(form)).toBe(false);
    expect(canSave({ ...form, url: 'https://h.example.com/' })).toBe(true);
    expect(canSave({ ...form, kind: 'email', to: 'a@example.com' })).toBe(true);
    expect(canSave({ ...form, kind: 'email', to: 'a@example.com', type: 'consoleMatch' })).toBe(false);
  });

  it('shows each refusal under its field', () => {
    expect(ruleErrorOf(refused('ErrFieldTooLarge', { field: 'condition.count', max: 100 }))).toMatchObject({
      field: 'count',
      key: 'errors.ErrFieldTooLarge',
    });
    expect(
      ruleErrorOf(refused('ErrAlertTargetRefused', { url: 'http://10.0.0.1', reason: 'private' })),
    ).toMatchObject({ field: 'url' });
    expect(
      ruleErrorOf(refused('ErrAlertRuleInvalid', { reason: 'only json webhooks are signed' })),
    ).toMatchObject({ field: 'secret' });
    expect(
      ruleErrorOf(refused('ErrAlertRuleInvalid', { reason: 'nodeOffline rules watch every server' })),
    ).toMatchObject({ field: 'type' });
    expect(ruleErrorOf(new Error('network'))).toBeUndefined();
  });
});
