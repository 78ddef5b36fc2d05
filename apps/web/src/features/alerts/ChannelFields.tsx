import { SegmentedControl, Stack, Text } from '@mantine/core';
import { webhookFormats } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/SelectField';
import { TextField } from '../../components/TextField';
import type { RuleField } from './field-errors';
import type { RuleForm, SecretMode } from './rule-form';

interface Props {
  form: RuleForm;
  set: (patch: Partial<RuleForm>) => void;
  errorFor: (field: RuleField) => string | undefined;
}

/** Where a rule sends: a webhook (URL, payload format, the signing secret of `json`) or an e-mail address. */
export function ChannelFields({ form, set, errorFor }: Props) {
  const { t } = useTranslation();
  const secretModes: SecretMode[] = form.hasSecret ? ['keep', 'generate', 'type'] : ['generate', 'type'];
  return (
    <Stack gap="sm">
      <Text size="sm" fw={500}>
        {t('alerts.fields.channel')}
      </Text>
      <SegmentedControl
        fullWidth
        data={[
          { value: 'webhook', label: t('alerts.channels.webhook') },
          { value: 'email', label: t('alerts.channels.email') },
        ]}
        value={form.kind}
        onChange={(kind) => set({ kind })}
        data-testid="alert-channel"
      />
      {form.kind === 'email' ? (
        <TextField
          type="email"
          label={t('alerts.fields.to')}
          value={form.to}
          onChange={(to) => set({ to })}
          maxLength={191}
          error={errorFor('to')}
          data-testid="alert-to"
        />
      ) : (
        <>
          <TextField
            label={t('alerts.fields.url')}
            value={form.url}
            onChange={(url) => set({ url })}
            maxLength={2048}
            error={errorFor('url')}
            data-testid="alert-url"
          />
          <SelectField
            label={t('alerts.fields.format')}
            data={webhookFormats.map((format) => ({ value: format, label: t(`alerts.formats.${format}`) }))}
            value={form.format}
            onChange={(format) => set({ format })}
            error={errorFor('format')}
            data-testid="alert-format"
          />
          {form.format === 'json' && (
            <>
              <SelectField
                label={t('alerts.fields.secret')}
                description={t('alerts.secretHint')}
                data={secretModes.map((mode) => ({ value: mode, label: t(`alerts.secretModes.${mode}`) }))}
                value={form.secretMode}
                onChange={(secretMode) => set({ secretMode, secret: '' })}
                error={form.secretMode === 'type' ? undefined : errorFor('secret')}
                data-testid="alert-secret-mode"
              />
              {form.secretMode === 'type' && (
                <TextField
                  label={t('alerts.fields.typedSecret')}
                  value={form.secret}
                  onChange={(secret) => set({ secret })}
                  maxLength={256}
                  autoComplete="off"
                  error={errorFor('secret')}
                  data-testid="alert-secret"
                />
              )}
            </>
          )}
        </>
      )}
    </Stack>
  );
}
