import { Button, Card, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { playerAddress } from '@hearth/contract/server-address';
import type { ServerView } from '@hearth/contract/servers';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasScope } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { Icon } from '../../components/icons';
import { PageLoader } from '../../components/PageLoader';
import { StatusIndicator } from '../../components/StatusIndicator';
import { useFormat } from '../../i18n/format';
import { PAGE_SIZE, serversListQuery } from './api';
import { rowStatus } from './list/server-row-model';
import { PlayerCount } from './PlayerCount';

/**
 * /server: the caller's own servers first, then the rest by name; a search by name; each row's live status, CPU,
 * memory and players where known (one cached summary per node, docs/api.md § Servers); 10 per page. On a phone
 * the node and address columns give way so the rest fits without scrolling the page sideways.
 */
export default function ServersPage() {
  const { t } = useTranslation();
  const { scopes } = useSession();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const servers = useQuery(serversListQuery(page, q));
  const total = servers.data?.paging.total ?? 0;
  if (servers.isPending) return <PageLoader />;
  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Title order={2}>{t('servers.title')}</Title>
        {hasScope(scopes, 'servers.create') && (
          <Button component={Link} to="/addserver" leftSection={<Icon name="plus" size={16} />}>
            {t('servers.add.title')}
          </Button>
        )}
      </Group>
      <TextInput
        type="search"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        placeholder={t('servers.list.search')}
        aria-label={t('servers.list.search')}
        leftSection={<Icon name="search" size={16} />}
        maw={360}
        data-testid="servers-search"
      />
      <Card withBorder radius="md" padding={0}>
        {/* Wide enough that names break between words and status badges stay whole; past that the table scrolls
            inside its card, never the page. */}
        <Table.ScrollContainer minWidth={520} type="native">
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="sm" data-testid="servers-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.name')}</Table.Th>
                <Table.Th>{t('servers.list.status')}</Table.Th>
                <Table.Th>{t('servers.stats.cpu')}</Table.Th>
                <Table.Th>{t('servers.stats.memory')}</Table.Th>
                <Table.Th>{t('servers.list.players')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('servers.list.node')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('servers.list.address')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {servers.data?.servers.map((server) => (
                <ServerRow key={server.id} server={server} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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

function ServerRow({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const status = rowStatus(server);
  const running = status === 'online' ? server.live : undefined;
  return (
    <Table.Tr data-testid={`server-row-${server.id}`}>
      <Table.Td>
        <Text
          component={Link}
          to={`/server/${server.id}`}
          fw={600}
          c="var(--mantine-primary-color-filled)"
          style={{ overflowWrap: 'break-word' }}
          dir="auto"
        >
          {server.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <StatusIndicator
          status={status}
          label={t(`servers.status.${status}`)}
          testId={`status-${server.id}`}
        />
      </Table.Td>
      <Table.Td data-testid={`cpu-${server.id}`} style={{ whiteSpace: 'nowrap' }}>
        {running ? `${format.number(running.cpu, { maximumFractionDigits: 1 })} %` : '–'}
      </Table.Td>
      <Table.Td data-testid={`memory-${server.id}`} style={{ whiteSpace: 'nowrap' }}>
        {running ? format.bytes(running.memory) : '–'}
      </Table.Td>
      <Table.Td>
        <PlayerCount players={server.players} testId={`players-${server.id}`} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text span size="sm" dir="auto">
          {server.node.name}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        {/* What players connect to, not the bind address (docs/web.md § Server address). */}
        <Text ff="monospace" size="sm" dir="ltr" data-testid={`address-${server.id}`}>
          {playerAddress(server, window.location.hostname)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
