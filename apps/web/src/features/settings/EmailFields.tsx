import { Card, PasswordInput, Select, Stack, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { emailProviderNames, type EmailProviderName } from '@hearth/contract/settings';
import { isAdmin } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { providerFields, type SettingsValues } from './api';
import { EmailTest } from './EmailTest';

const secretFields = new Set(['password', 'key']);

/** The e-mail provider and the fields that provider needs. */
export function EmailFields({ form }: { form: UseFormReturnType<SettingsValues> }) {
  const { t } = useTranslation();
  const { scopes } = useSession();
  const provider = (form.values.provider || 'none') as EmailProviderName;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack>
        <Title order={4}>{t('settings.email.title')}</Title>
        <Select
          label={t('settings.email.provider')}
          data={emailProviderNames.map((p) => ({ value: p, label: t(`settings.email.providers.${p}`) }))}
          allowDeselect={false}
          {...form.getInputProps('provider')}
        />
        {(providerFields[provider] ?? []).map((field) =>
          secretFields.has(field) ? (
            <PasswordInput
              key={field}
              label={t(`settings.email.${field}`)}
              placeholder={t('settings.email.secretUnchanged')}
              autoComplete="new-password"
              {...form.getInputProps(field)}
            />
          ) : (
            <TextInput key={field} label={t(`settings.email.${field}`)} {...form.getInputProps(field)} />
          ),
        )}
        {/* The route is for administrators; holders of panel.settings alone do not see the button. */}
        {isAdmin(scopes) && provider !== 'none' && <EmailTest unsaved={form.isDirty()} />}
      </Stack>
    </Card>
  );
}
