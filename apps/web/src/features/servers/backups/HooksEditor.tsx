import { Group, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HOOK_LIMITS, type HooksField, type HooksForm } from './policy-form';

interface Props {
  value: HooksForm;
  errors: ReadonlySet<HooksField>;
  disabled: boolean;
  onChange: (value: HooksForm) => void;
}

/**
 * The policy's own backup hooks (docs/backups.md § Hooks), overriding the template's: console lines sent before
 * the snapshot, the console line to wait for, the lines sent after, and how long to wait. Each field says what
 * the daemon would refuse before anything is sent.
 */
export function HooksEditor({ value, errors, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const linesError = t('servers.backups.policy.hooksLinesInvalid', {
    max: HOOK_LIMITS.lines,
    chars: HOOK_LIMITS.lineChars,
  });
  const lines = (field: 'pre' | 'post') => (
    <Textarea
      label={t(`servers.backups.policy.${field === 'pre' ? 'hooksPre' : 'hooksPost'}`)}
      value={value[field]}
      disabled={disabled}
      autosize
      minRows={2}
      maxRows={8}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      error={errors.has(field) ? linesError : undefined}
      onChange={(e) => onChange({ ...value, [field]: e.currentTarget.value })}
      data-testid={`backup-hooks-${field}`}
    />
  );
  return (
    <Stack gap="xs" data-testid="backup-hooks-custom">
      {lines('pre')}
      <Group grow align="flex-start">
        <TextInput
          label={t('servers.backups.policy.hooksWaitFor')}
          value={value.waitFor}
          disabled={disabled}
          error={
            errors.has('waitFor')
              ? t('servers.backups.policy.hooksWaitForInvalid', { chars: HOOK_LIMITS.waitForChars })
              : undefined
          }
          onChange={(e) => onChange({ ...value, waitFor: e.currentTarget.value })}
          data-testid="backup-hooks-waitFor"
        />
        <NumberInput
          label={t('servers.backups.policy.hooksTimeout')}
          value={value.timeoutSeconds}
          disabled={disabled}
          allowDecimal={false}
          error={
            errors.has('timeoutSeconds')
              ? t('servers.backups.policy.hooksTimeoutInvalid', {
                  min: HOOK_LIMITS.minSeconds,
                  max: HOOK_LIMITS.maxSeconds,
                })
              : undefined
          }
          onChange={(v) => onChange({ ...value, timeoutSeconds: typeof v === 'number' ? v : NaN })}
          data-testid="backup-hooks-timeout"
        />
      </Group>
      {lines('post')}
    </Stack>
  );
}
