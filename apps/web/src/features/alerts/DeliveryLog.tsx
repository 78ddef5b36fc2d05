import { Badge, Group, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import type { AlertDeliveryStatus, AlertRule } from '@hearth/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../i18n/format';
import { deliveriesQuery, type AlertsScope } from './api';

export const LOG_PAGE_SIZE = 10;

export const statusColor: Record<AlertDeliveryStatus, string> = {
  pending: 'blue',
  delivered: 'green',
  failed: 'red',
  suppressed: 'gray',
};

/** What a row was about: a condition, a test or the summary of suppressed alerts. */
export function eventKey(event: string): string {
  return event === 'test' || event === 'summary'
    ? `alerts.events.${event}`
    : `alerts.conditionTypes.${event}`;
}

/** A rule's delivery log, newest first, paged (the panel keeps the newest 200 rows of each rule). */
export function DeliveryLog({
  scope,
  rule,
  onClose,
}: {
  scope: AlertsScope;
  rule: AlertRule;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const log = useQuery(deliveriesQuery(scope, rule.id));
  const rows = log.data?.deliveries ?? [];
  const shown = rows.slice((page - 1) * LOG_PAGE_SIZE, page * LOG_PAGE_SIZE);
  return (
    <Modal opened onClose={onClose} title={t('alerts.logTitle', { name: rule.name })} size="xl">
      <Stack data-testid="alert-log">
        <Table.ScrollContainer minWidth={560} type="native">
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('alerts.columns.time')}</Table.Th>
                <Table.Th>{t('alerts.columns.event')}</Table.Th>
                <Table.Th>{t('alerts.columns.result')}</Table.Th>
                <Table.Th>{t('alerts.columns.attempts')}</Table.Th>
                <Table.Th>{t('alerts.columns.error')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((d) => (
                <Table.Tr key={d.id} data-testid="alert-log-row">
                  <Table.Td>{format.dateTime(d.time)}</Table.Td>
                  <Table.Td>{t(eventKey(d.event))}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[d.status]} variant="light">
                      {t(`alerts.statuses.${d.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{format.number(d.attempts)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{d.lastError ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {log.data && rows.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {t('alerts.logEmpty')}
          </Text>
        )}
        {rows.length > LOG_PAGE_SIZE && (
          <Group justify="center">
            <Pagination total={Math.ceil(rows.length / LOG_PAGE_SIZE)} value={page} onChange={setPage} />
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
