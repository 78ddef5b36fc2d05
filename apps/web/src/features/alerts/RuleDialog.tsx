import { Alert, Modal, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import type { AlertRuleCreated } from '@hearth/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../api/notify';
import { DialogActions } from '../../components/DialogActions';
import { SelectField } from '../../components/SelectField';
import { SwitchInput } from '../../components/SwitchInput';
import { TextField } from '../../components/TextField';
import { formatNumber } from '../../i18n/format';
import { alertsApi, type AlertsScope } from './api';
import { ruleErrorOf, type RuleError, type RuleField } from './field-errors';
import { ChannelFields } from './ChannelFields';
import {
  canSave,
  numberFields,
  offeredTypes,
  PATTERN_MAX,
  ruleBody,
  withGeneratedSecret,
  type NumberField,
  type RuleForm,
} from './rule-form';
import { ServerPicker } from './ServerPicker';

interface Props {
  scope: AlertsScope;
  /** The rule being edited, or null for a new one. */
  ruleId: string | null;
  initial: RuleForm;
  onClose: () => void;
  /** After a save; `secret` when one was generated, to be shown once. */
  onSaved: (secret?: string) => void;
}

const numberLabel = (field: NumberField, type: string) =>
  field === 'threshold' ? `alerts.fields.threshold.${type}` : `alerts.fields.${field}`;

/** New / edit alert rule: name, scope, condition with its fields, channel; refusals under their fields. */
export function RuleDialog({ scope, ruleId, initial, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<RuleError>();
  const set = (patch: Partial<RuleForm>) => {
    setForm({ ...form, ...patch });
    setError(undefined);
  };
  const editing = ruleId !== null;
  const save = useMutation({
    mutationFn: async (ready: RuleForm): Promise<string | undefined> => {
      const body = ruleBody(ready, editing, !scope.serverId);
      const generated =
        ready.kind === 'webhook' && ready.format === 'json' && ready.secretMode === 'generate';
      if (ruleId) {
        await alertsApi.update(scope, ruleId, body);
        return generated ? ready.secret : undefined;
      }
      const created: AlertRuleCreated = await alertsApi.create(scope, body);
      return generated ? created.secret : undefined;
    },
    onSuccess: (secret) => onSaved(secret),
    // Refusals about a field show under it; only the others become a toast (not both).
    meta: { silent: true },
    onError: (err) => {
      const found = ruleErrorOf(err);
      if (found) setError(found);
      else notifyError(err);
    },
  });
  const errorFor = (field: RuleField) => (error?.field === field ? t(error.key, error.values) : undefined);
  const types = offeredTypes(Boolean(scope.serverId || form.serverId));
  // A server's rules never watch nodes: a node condition falls back to a crash when a server is chosen.
  const changeScope = (serverId: string) =>
    set({ serverId, type: !serverId || offeredTypes(true).includes(form.type) ? form.type : 'crash' });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(editing ? 'alerts.editTitle' : 'alerts.newTitle')}
      size="lg"
      data-testid="alert-dialog"
    >
      <Stack>
        <TextField
          label={t('alerts.fields.name')}
          value={form.name}
          onChange={(name) => set({ name })}
          maxLength={100}
          error={errorFor('name')}
          data-testid="alert-name"
        />
        <SwitchInput
          label={t('alerts.enabled')}
          checked={form.enabled}
          onChange={(enabled) => set({ enabled })}
        />
        {!scope.serverId && (
          <ServerPicker value={form.serverId} onChange={changeScope} error={errorFor('serverId')} />
        )}
        <SelectField
          label={t('alerts.fields.condition')}
          data={types.map((type) => ({
            value: type,
            label: t(`alerts.conditionTypes.${type}`),
          }))}
          value={form.type}
          onChange={(type) => set({ type })}
          error={errorFor('type')}
          data-testid="alert-condition"
        />
        {numberFields(form.type).map(([field, range]) => (
          <NumberInput
            key={field}
            label={t(numberLabel(field, form.type))}
            description={t('alerts.range', { min: formatNumber(range.min), max: formatNumber(range.max) })}
            min={range.min}
            max={range.max}
            allowDecimal={field === 'threshold'}
            value={form[field]}
            onChange={(value) => set({ [field]: typeof value === 'number' ? value : Number(value) || 0 })}
            error={errorFor(field)}
            data-testid={`alert-${field}`}
          />
        ))}
        {form.type === 'consoleMatch' && (
          <>
            <TextField
              label={t('alerts.fields.pattern')}
              value={form.pattern}
              onChange={(pattern) => set({ pattern })}
              maxLength={PATTERN_MAX}
              error={errorFor('pattern')}
              data-testid="alert-pattern"
            />
            <SegmentedControl
              fullWidth
              data={[
                { value: 'literal', label: t('alerts.modes.literal') },
                { value: 'glob', label: t('alerts.modes.glob') },
              ]}
              value={form.mode}
              onChange={(mode) => set({ mode: mode })}
            />
          </>
        )}
        <ChannelFields form={form} set={set} errorFor={errorFor} />
        {error && !error.field && (
          <Alert color="red" data-testid="alert-error">
            <Text size="sm">{t(error.key, error.values)}</Text>
          </Alert>
        )}
        <DialogActions
          onCancel={onClose}
          onSave={() => save.mutate(withGeneratedSecret(form, editing))}
          loading={save.isPending}
          disabled={!canSave(form)}
          saveTestId="alert-save"
        />
      </Stack>
    </Modal>
  );
}
