import { Button, Card, Group, SimpleGrid, Stack } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { OAuthClientsCard } from '../../oauth2/OAuthClientsCard';
import { serversApi } from '../api';
import type { ServerTabProps } from '../tabs';
import { TransferCard } from '../transfer/TransferCard';
import { AutoSwitches } from './AutoSwitches';
import { CardHeading } from './CardHeading';
import { DefinitionOverlay } from './DefinitionOverlay';
import { DeleteServer } from './DeleteServer';
import { loadDefinition } from './definition';
import { definitionKey } from './keys';

/**
 * Admin tab: auto switches, definition, reload, move to another node (admins), delete (deleteServer), OAuth2
 * clients (always).
 */
export default function AdminTab({ server, permissions, admin, live }: ServerTabProps) {
  return (
    <Stack data-testid="admin-tab">
      {admin && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <AutoSwitches serverId={server.id} />
          <DefinitionCard serverId={server.id} />
        </SimpleGrid>
      )}
      {admin && <TransferCard server={server} live={live} />}
      {(admin || permissions.deleteServer) && <DeleteServer serverId={server.id} name={server.name} />}
      <OAuthClientsCard scope={{ kind: 'server', serverId: server.id }} />
    </Stack>
  );
}

function DefinitionCard({ serverId }: { serverId: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const definition = useQuery({ queryKey: definitionKey(serverId), queryFn: () => loadDefinition(serverId) });
  const reload = useMutation({
    mutationFn: () => serversApi.reload(serverId),
    onSuccess: () => notifySuccess(t('servers.admin.reloaded')),
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack justify="space-between" h="100%">
        <CardHeading
          title={t('servers.admin.definitionTitle')}
          hint={t('servers.admin.definitionHint')}
          gap={4}
        />
        <Group>
          <Button disabled={!definition.data} onClick={() => setEditing(true)}>
            {t('servers.admin.editDefinition')}
          </Button>
          <Button variant="default" loading={reload.isPending} onClick={() => reload.mutate()}>
            {t('servers.admin.reload')}
          </Button>
        </Group>
      </Stack>
      {editing && definition.data && (
        <DefinitionOverlay serverId={serverId} stored={definition.data} onClose={() => setEditing(false)} />
      )}
    </Card>
  );
}
