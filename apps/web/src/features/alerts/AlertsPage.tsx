import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AlertRules } from './AlertRules';

/** Every alert rule, global and per server (administrators; docs/alerts.md § Screens). */
export default function AlertsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('alerts.title')}</Title>
      <AlertRules scope={{}} />
    </Stack>
  );
}
