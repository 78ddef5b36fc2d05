import { Button, Card, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasScope } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { Icon } from '../../components/icons';
import { PageLoader } from '../../components/PageLoader';
import { PAGE_SIZE, serversListQuery } from './api';
import { PlayerCount } from './PlayerCount';

/** /server: name, node, address (computed by the panel), players where known; 10 per page. */
export default function ServersPage() {
  const { t } = useTranslation();
  const { scopes } = useSession();
  const [page, setPage] = useState(1);
  const servers = useQuery(serversListQuery(page));
  const total = servers.data?.paging.total ?? 0;
  if (servers.isPending) return <PageLoader />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('servers.title')}</Title>
        {hasScope(scopes, 'servers.create') && (
          <Button component={Link} to="/addserver" leftSection={<Icon name="plus" size={16} />}>
            {t('servers.add.title')}
          </Button>
        )}
      </Group>
      <Card withBorder radius="md" padding={0}>
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="servers-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('servers.list.node')}</Table.Th>
              <Table.Th>{t('servers.list.address')}</Table.Th>
              <Table.Th>{t('servers.list.players')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {servers.data?.servers.map((server) => (
              <Table.Tr key={server.id}>
                <Table.Td>
                  <Text
                    component={Link}
                    to={`/server/${server.id}`}
                    fw={600}
                    c="var(--mantine-primary-color-filled)"
                  >
                    {server.name}
                  </Text>
                </Table.Td>
                <Table.Td>{server.node.name}</Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {server.address}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <PlayerCount players={server.players} testId={`players-${server.id}`} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {servers.data?.servers.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {t('servers.list.empty')}
          </Text>
        )}
        {total > PAGE_SIZE && (
          <Group justify="center" p="md">
            <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
          </Group>
        )}
      </Card>
    </Stack>
  );
}
