import { Button, Card, Group, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { configQuery, shellKeys } from '../../api/queries';
import { PageLoader } from '../../components/PageLoader';
import { EmailFields } from './EmailFields';
import { saveSettings, settingsKeys, settingsQuery, type SettingsValues } from './api';

const empty: SettingsValues = {
  masterUrl: '',
  companyName: '',
  defaultTheme: '',
  registrationEnabled: false,
  provider: 'none',
  from: '',
  domain: '',
  key: '',
  host: '',
  username: '',
  password: '',
};

/** Panel settings and e-mail settings, saved together. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const themes = useQuery(configQuery).data?.themes.available ?? [];
  const form = useForm<SettingsValues>({ initialValues: empty });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!settings.data) return;
    setValues(settings.data);
    // The loaded values are the saved state: "Send test e-mail" is offered only while nothing is unsaved.
    resetDirty(settings.data);
  }, [settings.data, setValues, resetDirty]);
  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: async () => {
      notifySuccess(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      await queryClient.invalidateQueries({ queryKey: shellKeys.config });
    },
  });
  if (settings.isPending) return <PageLoader />;
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
      <Stack>
        <Title order={2}>{t('settings.title')}</Title>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder radius="md" padding="lg">
            <Stack>
              <Title order={4}>{t('settings.panel.title')}</Title>
              <TextInput
                label={t('settings.panel.masterUrl')}
                description={t('settings.panel.masterUrlHint')}
                {...form.getInputProps('masterUrl')}
              />
              <TextInput label={t('settings.panel.companyName')} {...form.getInputProps('companyName')} />
              <Select
                label={t('settings.panel.defaultTheme')}
                data={themes}
                allowDeselect={false}
                {...form.getInputProps('defaultTheme')}
              />
              <Switch
                label={t('settings.panel.registration')}
                {...form.getInputProps('registrationEnabled', { type: 'checkbox' })}
              />
            </Stack>
          </Card>
          <EmailFields form={form} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
