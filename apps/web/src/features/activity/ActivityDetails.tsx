import { Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActivityDetails as Details } from '@hearth/contract';

/**
 * An entry's details: the facts as JSON, and a crash's last console lines (docs/activity.md § Node events)
 * as the console showed them, one per line, rather than inside the JSON.
 */
export function ActivityDetails({ details }: { details: Details }) {
  const { t } = useTranslation();
  const { lines, ...rest } = details;
  const consoleLines = Array.isArray(lines) ? lines.filter((l): l is string => typeof l === 'string') : null;
  return (
    <Stack gap={4}>
      <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {JSON.stringify(consoleLines ? rest : details)}
      </Code>
      {consoleLines && (
        <>
          <Text size="xs" c="dimmed">
            {t('activity.details.consoleLines')}
          </Text>
          <Code block data-testid="activity-console-lines" style={{ maxHeight: 240, overflow: 'auto' }}>
            {consoleLines.join('\n')}
          </Code>
        </>
      )}
    </Stack>
  );
}
