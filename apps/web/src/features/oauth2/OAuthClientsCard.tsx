import { ActionIcon, Anchor, Badge, Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import type { OauthClientBody, OauthClientCreated, OauthClientView } from '@hearth/contract/accounts';
import { clientsQuery, oauthApi, oauthKeys, type ClientScope } from './api';
import { CreateClientOverlay } from './CreateClientOverlay';
import { CredentialsOverlay } from './CredentialsOverlay';
import { clientName, DeleteClientOverlay } from './DeleteClientOverlay';

/** OAuth2 clients of the account or of one server, with create, show-once and delete overlays. */
export function OAuthClientsCard({ scope }: { scope: ClientScope }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const clients = useQuery(clientsQuery(scope));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<OauthClientCreated | null>(null);
  const [deleting, setDeleting] = useState<OauthClientView | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: oauthKeys.list(scope) });
  const create = useMutation({
    mutationFn: (body: OauthClientBody) => oauthApi.create(scope, body),
    onSuccess: async (reply) => {
      setCreating(false);
      setCreated(reply);
      await reload();
    },
  });
  const remove = useMutation({
    mutationFn: (client: OauthClientView) => oauthApi.remove(scope, client.client_id),
    onSuccess: async () => {
      setDeleting(null);
      await reload();
    },
  });
  return (
    <Card withBorder radius="md" padding="lg" data-testid="oauth2-card">
      <Stack>
        <Title order={4}>{t(`oauth2.${scope.kind}.title`)}</Title>
        <Text size="sm" c="dimmed">
          {t(`oauth2.${scope.kind}.description`)}{' '}
          <Anchor href="/swagger" target="_blank">
            {t('oauth2.apiDocs')}
          </Anchor>
        </Text>
        {clients.data?.length === 0 && <Text size="sm">{t('oauth2.empty')}</Text>}
        {clients.data?.map((client) => (
          <Group
            key={client.client_id}
            justify="space-between"
            wrap="nowrap"
            data-testid="oauth2-client"
            data-revoked={client.revoked}
          >
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="nowrap">
                <Text fw={600} truncate td={client.revoked ? 'line-through' : undefined}>
                  {clientName(client, t)}
                </Text>
                {client.revoked && (
                  <Badge color="red" variant="light" size="sm">
                    {t('oauth2.revoked')}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" truncate>
                {client.description || client.client_id}
              </Text>
              {client.revoked && (
                <Text size="xs" c="red">
                  {t('oauth2.revokedHint')}
                </Text>
              )}
            </Stack>
            <Tooltip label={t('common.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('common.delete')}
                onClick={() => setDeleting(client)}
              >
                <Icon name="trash" size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        <Button variant="light" onClick={() => setCreating(true)}>
          {t('oauth2.add')}
        </Button>
      </Stack>
      <CreateClientOverlay
        opened={creating}
        loading={create.isPending}
        onCancel={() => setCreating(false)}
        onCreate={create.mutate}
      />
      <CredentialsOverlay client={created} onClose={() => setCreated(null)} />
      <DeleteClientOverlay
        client={deleting}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onDelete={remove.mutate}
      />
    </Card>
  );
}
