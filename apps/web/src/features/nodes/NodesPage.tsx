import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { hasScope } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { Icon } from '../../components/icons';
import { PageLoader } from '../../components/PageLoader';
import { nodesQuery, type NodeStatus as Status } from './api';
import { NodeStatus } from './NodeStatus';

/** The panel may report each node's status in the list (cached probes); older panels do not. */
function reportedStatus(node: object): Status | undefined {
  const status = (node as { status?: unknown }).status;
  return status === 'online' || status === 'offline' || status === 'unknown' ? status : undefined;
}

/** /node: every node with its addresses and whether it answers (online indicator). */
export default function NodesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { scopes } = useSession();
  const nodes = useQuery(nodesQuery);
  if (nodes.isPending) return <PageLoader />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('nodes.title')}</Title>
        {hasScope(scopes, 'nodes.edit') && (
          <Button component={Link} to="/addnode" leftSection={<Icon name="plus" size={16} />}>
            {t('nodes.add.title')}
          </Button>
        )}
      </Group>
      <Card withBorder radius="md" padding={0}>
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="nodes-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('nodes.fields.publicAddress')}</Table.Th>
              <Table.Th>{t('nodes.fields.sftpPort')}</Table.Th>
              <Table.Th>{t('nodes.fields.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {nodes.data?.map((node) => (
              <Table.Tr
                key={node.id}
                style={{ cursor: 'pointer' }}
                onClick={() => void navigate(`/node/${encodeURIComponent(node.id)}`)}
              >
                <Table.Td>
                  <Group gap="xs">
                    <Text fw={600}>{node.name}</Text>
                    {node.isLocal && (
                      <Badge size="xs" variant="outline" color="gray">
                        {t('nodes.local')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {node.publicHost}:{node.publicPort}
                  </Text>
                </Table.Td>
                <Table.Td>{node.sftpPort}</Table.Td>
                <Table.Td>
                  <NodeStatus id={node.id} reported={reportedStatus(node)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {nodes.data?.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            {t('nodes.empty')}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
