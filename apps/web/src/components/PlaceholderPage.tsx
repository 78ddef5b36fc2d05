import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteTitleKey } from '../app/useRouteTitle';

/** Stand-in for screens later issues build; it still shows the route's translated title. */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  const titleKey = useRouteTitleKey();
  return (
    <Stack>
      <Title order={2}>{titleKey ? t(titleKey) : ''}</Title>
      <Paper withBorder p="xl" radius="md">
        <Text c="dimmed">{t('placeholder.comingSoon')}</Text>
      </Paper>
    </Stack>
  );
}
