import { Alert, Card, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../../api/notify';
import { ConfirmDeleteButton } from '../../../components/ConfirmDeleteButton';
import { Icon } from '../../../components/icons';
import { serverKeys, serversApi } from '../api';
import { CardHeading } from './CardHeading';

/** Delete with confirmation → 'Server deleted' and back to the list. */
export function DeleteServer({ serverId, name }: { serverId: string; name: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onDeleted = async (reply: Awaited<ReturnType<typeof serversApi.remove>>) => {
    notifySuccess(t('servers.admin.deleted'));
    // The node was down: the panel forgot the server but its files stay there.
    if (reply?.warning) notifications.show({ color: 'yellow', message: reply.warning, autoClose: 6000 });
    // Nothing may ask about this server again: its queries (detail, users, variables, history, clients …) are
    // cancelled, never refetched nor removed while the page still shows them (a removed query with a mounted
    // observer fetches anew) — each would only answer "Server not found". Only the other lists refresh.
    const aboutIt = (query: { queryKey: readonly unknown[] }) => query.queryKey.includes(serverId);
    await queryClient.cancelQueries({ predicate: aboutIt });
    void navigate('/server');
    await queryClient.invalidateQueries({ queryKey: serverKeys.all, predicate: (q) => !aboutIt(q) });
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="delete-server">
      <Group justify="space-between" wrap="nowrap">
        <CardHeading title={t('servers.admin.deleteTitle')} hint={t('servers.admin.deleteHint')} gap={2} />
        <ConfirmDeleteButton
          title={t('servers.admin.confirmTitle', { name })}
          label={t('servers.admin.delete')}
          onDelete={() => serversApi.remove(serverId)}
          onDeleted={onDeleted}
        >
          <Alert color="red" icon={<Icon name="alert" />}>
            {t('servers.admin.confirmText')}
          </Alert>
        </ConfirmDeleteButton>
      </Group>
    </Card>
  );
}
