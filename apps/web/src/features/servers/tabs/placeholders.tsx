import { Card, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Stand-in for a tab another part of the issue builds; tabs.ts points at the real one when it lands. */
function Placeholder({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="xl" data-testid={testId}>
      <Text c="dimmed">{t('placeholder.comingSoon')}</Text>
    </Card>
  );
}

export const ConsolePlaceholder = () => <Placeholder testId="console-placeholder" />;
export const StatsPlaceholder = () => <Placeholder testId="stats-placeholder" />;
export const FilesPlaceholder = () => <Placeholder testId="files-placeholder" />;
export const TasksPlaceholder = () => <Placeholder testId="tasks-placeholder" />;
