import { Badge, Group, Text } from '@mantine/core';
import type { ImportableTemplate } from '@hearth/contract/templates-api';
import { useTranslation } from 'react-i18next';

const colors = { current: 'green', newer: 'blue', differs: 'orange' } as const;

/** Whether a template is imported already, and whether the source has a newer version (docs/api.md). */
export function ImportStateBadges({ row }: { row: ImportableTemplate }) {
  const { t } = useTranslation();
  const { state, imported, version } = row;
  if (state === 'new') return null;
  const versions =
    state === 'newer' && imported?.version !== undefined && version !== undefined
      ? t('templates.import.versions', { imported: imported.version, offered: version })
      : undefined;
  return (
    <Group gap={4} wrap="wrap">
      <Badge color={colors[state]} variant="light" data-testid={`import-state-${state}`}>
        {t(`templates.import.state.${state}`)}
      </Badge>
      {imported?.editedSince && (
        <Badge color="gray" variant="light" data-testid="import-state-edited">
          {t('templates.import.state.edited')}
        </Badge>
      )}
      {versions && (
        <Text size="xs" c="dimmed" data-testid="import-versions">
          {versions}
        </Text>
      )}
    </Group>
  );
}
