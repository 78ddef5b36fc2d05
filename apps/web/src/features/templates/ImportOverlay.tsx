import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { ImportableTemplate } from '@hearth/contract/templates-api';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FullscreenOverlay } from '../../components/FullscreenOverlay';
import { importableQuery } from './api';
import { ConfirmReimport } from './ConfirmReimport';
import { ImportStateBadges } from './ImportStateBadges';
import { useImport } from './useImport';
import { WarningBadges } from './WarningBadges';

/**
 * Lists importable templates from every source with their state (imported, newer in the source) and imports
 * one at a time; replacing a stored template asks first.
 */
export function ImportOverlay({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const list = useQuery({ ...importableQuery, enabled: opened });
  const importer = useImport();
  const data = list.data;
  return (
    <FullscreenOverlay opened={opened} onClose={onClose} title={t('templates.import.title')}>
      {!data ? (
        <Loader />
      ) : (
        <Stack>
          {data.sourceErrors.map((e) => (
            <Alert key={e.source} color="red" title={e.source}>
              {e.error}
            </Alert>
          ))}
          <Stack gap="xs">
            {data.templates.map((row) => (
              <ImportRow
                key={`${row.source}:${row.name}`}
                row={row}
                pending={importer.pending?.name === row.name}
                disabled={importer.pending !== undefined}
                onImport={() => importer.start(row)}
              />
            ))}
          </Stack>
          {data.problems.length > 0 && (
            <Alert color="yellow" title={t('templates.import.problems')}>
              {data.problems.map((p) => (
                <Text key={`${p.source}:${p.path}`} size="sm">
                  {p.source}: {p.reason}
                </Text>
              ))}
            </Alert>
          )}
        </Stack>
      )}
      <ConfirmReimport
        row={importer.confirming}
        loading={importer.pending !== undefined}
        onConfirm={importer.confirm}
        onCancel={importer.cancel}
      />
    </FullscreenOverlay>
  );
}

interface RowProps {
  row: ImportableTemplate;
  pending: boolean;
  disabled: boolean;
  onImport: () => void;
}

/** One template: names and badges on the left, the button on the right (below them on a phone). */
function ImportRow({ row, pending, disabled, onImport }: RowProps) {
  const { t } = useTranslation();
  const label =
    row.state === 'new'
      ? t('templates.import.one')
      : row.state === 'newer'
        ? t('templates.import.update')
        : t('templates.import.again');
  return (
    <Paper withBorder p="sm" radius="md" data-testid={`importable-${row.name}`} data-state={row.state}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Text fw={500} dir="auto">
            {row.display || row.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {row.name} · {row.source}
          </Text>
          <Group gap={4} wrap="wrap">
            <ImportStateBadges row={row} />
            <WarningBadges warnings={row.warnings} />
          </Group>
        </Stack>
        <Button
          size="xs"
          variant={row.state === 'new' || row.state === 'newer' ? 'filled' : 'default'}
          onClick={onImport}
          loading={pending}
          disabled={disabled && !pending}
        >
          {label}
        </Button>
      </Group>
    </Paper>
  );
}
