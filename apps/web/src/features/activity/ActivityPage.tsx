import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActivityTable } from './ActivityTable';

/** The panel-wide activity log (administrators; docs/activity.md). */
export default function ActivityPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('activity.title')}</Title>
      <ActivityTable />
    </Stack>
  );
}
