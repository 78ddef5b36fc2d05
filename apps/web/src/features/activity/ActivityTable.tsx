import { Button, Card, Code, Group, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { ACTIVITY_PAGE_SIZE, activityBase, activityQuery, downloadActivity, noFilters } from './api';
import { ActivityDetails } from './ActivityDetails';
import { actionLabelKey } from './action-label';

/** The activity log with filters, paging and exports: the admin page (all servers) or one server's tab. */
export function ActivityTable({ serverId }: { serverId?: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const base = activityBase(serverId);
  const [filters, setFilters] = useState(noFilters);
  const [debounced] = useDebouncedValue(filters, 300);
  const [page, setPage] = useState(1);
  const entries = useQuery(activityQuery(base, debounced, page));
  const total = entries.data?.paging.total ?? 0;
  const set = (key: keyof typeof filters) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setFilters({ ...filters, [key]: e.currentTarget.value });
    setPage(1);
  };
  return (
    <Card withBorder radius="md" padding={0}>
      <Stack p="md" gap="md">
        <Group align="end" wrap="wrap">
          <TextInput
            label={t('activity.filters.action')}

            value={filters.action}
            onChange={set('action')}
          />
          <TextInput label={t('activity.filters.user')} value={filters.user} onChange={set('user')} />
          <TextInput
            type="datetime-local"
            label={t('activity.filters.since')}
            value={filters.since}
            onChange={set('since')}
          />
          <TextInput
            type="datetime-local"
            label={t('activity.filters.until')}
            value={filters.until}
            onChange={set('until')}
          />
          <Button variant="default" onClick={() => void downloadActivity(base, debounced, 'csv')}>
            {t('activity.export.csv')}
          </Button>
          <Button variant="default" onClick={() => void downloadActivity(base, debounced, 'json')}>
            {t('activity.export.json')}
          </Button>
        </Group>
        <Table verticalSpacing="xs" data-testid="activity-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('activity.columns.time')}</Table.Th>
              <Table.Th>{t('activity.columns.actor')}</Table.Th>
              <Table.Th>{t('activity.columns.action')}</Table.Th>
              {!serverId && <Table.Th>{t('activity.columns.server')}</Table.Th>}
              <Table.Th>{t('activity.columns.ip')}</Table.Th>
              <Table.Th>{t('activity.columns.details')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.data?.entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{format.dateTime(entry.time)}</Table.Td>
                <Table.Td>{entry.actorLabel || entry.actorType}</Table.Td>
                <Table.Td>
                  {actionLabelKey(entry.action) && (
                    <Text size="sm">{t(actionLabelKey(entry.action) ?? '')}</Text>
                  )}
                  <Code>{entry.action}</Code>
                </Table.Td>
                {!serverId && <Table.Td>{entry.serverId ?? ''}</Table.Td>}
                <Table.Td>{entry.ip ?? ''}</Table.Td>
                <Table.Td>
                  <ActivityDetails details={entry.details} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {entries.data?.entries.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {t('activity.empty')}
          </Text>
        )}
        {total > ACTIVITY_PAGE_SIZE && (
          <Group justify="center">
            <Pagination total={Math.ceil(total / ACTIVITY_PAGE_SIZE)} value={page} onChange={setPage} />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
