import { Alert, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { FullscreenOverlay } from '../../components/FullscreenOverlay';
import { importableQuery, templateKeys, templatesApi } from './api';
import { WarningBadges } from './WarningBadges';

/** Lists importable templates from every source and imports one at a time. */
export function ImportOverlay({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ ...importableQuery, enabled: opened });
  const importOne = useMutation({
    mutationFn: (row: { name: string; source: string }) => templatesApi.import(row.name, row.source),
    onSuccess: async (result) => {
      notifySuccess(t('templates.import.done', { name: result.display || result.name }));
      await queryClient.invalidateQueries({ queryKey: templateKeys.list() });
    },
  });
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
          <Table striped highlightOnHover>
            <Table.Tbody>
              {data.templates.map((row) => (
                <Table.Tr key={`${row.source}:${row.name}`} data-testid={`importable-${row.name}`}>
                  <Table.Td>
                    <Text fw={500}>{row.display || row.name}</Text>
                    <Text size="xs" c="dimmed">
                      {row.name} · {row.source}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <WarningBadges warnings={row.warnings} />
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <Button size="xs" onClick={() => importOne.mutate(row)} loading={importOne.isPending}>
                        {t('templates.import.one')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
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
    </FullscreenOverlay>
  );
}
