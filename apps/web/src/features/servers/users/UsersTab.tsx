import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { emptyServerPermissions, serverPermissions, type ServerPermission } from '@hearth/contract';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import type { InviteCreated } from '@hearth/contract/accounts';
import type { ServerUserView } from '@hearth/contract/servers';
import { InvitationResult } from '../../users/InvitationResult';
import { serverKeys, serversApi, serverUsersQuery } from '../api';
import type { ServerTabProps } from '../tabs';
import { UserEntry, type Entry } from './UserEntry';

/** `canGrant`: the current user's own flags here; a user holding any other flag is locked for them. */
function toEntry(user: ServerUserView, canGrant: (perm: ServerPermission) => boolean): Entry {
  const { email, username, ...flags } = user;
  const base = emptyServerPermissions();
  for (const key of Object.keys(base) as (keyof typeof base)[]) base[key] = flags[key] === true;
  const locked = serverPermissions.some((perm) => base[perm] && !canGrant(perm));
  return { email, username, flags: base, isNew: false, locked };
}

/**
 * Users tab: who has access and with which flags; add by e-mail, local until saved. A non-admin
 * grants only flags they hold and cannot change users holding more (docs/security.md § Authorization).
 */
export default function UsersTab({ server, permissions, admin }: ServerTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const users = useQuery(serverUsersQuery(server.id));
  const [entries, setEntries] = useState<Entry[]>([]);
  const [email, setEmail] = useState('');
  const [invitation, setInvitation] = useState<InviteCreated | null>(null);
  // Keyed by the flags themselves: a refetched detail with the same flags keeps the entries being edited.
  const held = serverPermissions.filter((perm) => admin || permissions[perm]).join(',');
  const canGrant = useCallback((perm: ServerPermission) => held.split(',').includes(perm), [held]);
  useEffect(() => {
    // A reload keeps entries still being added here.
    if (users.data) {
      const saved = users.data.map((user) => toEntry(user, canGrant));
      setEntries((old) => [...saved, ...old.filter((e) => e.isNew)]);
    }
  }, [users.data, canGrant]);
  const reload = () => queryClient.invalidateQueries({ queryKey: serverKeys.users(server.id) });
  const save = useMutation({
    mutationFn: (entry: Entry) => serversApi.setUser(server.id, entry.email, entry.flags),
    onSuccess: async (reply, entry) => {
      // A new e-mail was invited: say whether the mail went out and hand over the link (docs/security.md).
      if (reply?.invitation) setInvitation(reply.invitation);
      else notifySuccess(t('servers.users.saved'));
      setEntries((old) => old.filter((e) => !(e.isNew && e.email === entry.email)));
      await reload();
    },
  });
  const remove = useMutation({
    mutationFn: (entry: Entry) => serversApi.removeUser(server.id, entry.email),
    onSuccess: async () => {
      notifySuccess(t('servers.users.deleted'));
      await reload();
    },
  });
  const add = () => {
    const address = email.trim();
    if (!address) {
      notifications.show({ color: 'red', message: t('servers.users.emailRequired') });
      return;
    }
    if (!entries.some((e) => e.email === address)) {
      setEntries([
        ...entries,
        { email: address, username: '', flags: emptyServerPermissions(), isNew: true, locked: false },
      ]);
    }
    setEmail('');
  };
  const update = (target: Entry, patch: Partial<Entry>) =>
    setEntries((old) => old.map((e) => (e.email === target.email ? { ...e, ...patch } : e)));
  if (users.isPending) return <PageLoader />;
  return (
    <Stack data-testid="users-tab">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Title order={4}>{t('servers.users.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('servers.users.description')}
          </Text>
          {!admin && (
            <Text size="sm" c="dimmed">
              {t('servers.users.grantHint')}
            </Text>
          )}
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={t('fields.email')}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              onKeyDown={(e) => e.key === 'Enter' && add()}
            />
            <Button onClick={add}>{t('servers.users.add')}</Button>
          </Group>
        </Stack>
      </Card>
      <Modal
        opened={invitation !== null}
        onClose={() => setInvitation(null)}
        title={t('users.invite.title')}
        centered
      >
        {invitation && (
          <Stack>
            <InvitationResult invitation={invitation} />
            <Group justify="flex-end">
              <Button onClick={() => setInvitation(null)}>{t('common.close')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      {entries.map((entry) => (
        <UserEntry
          key={entry.email}
          entry={entry}
          canGrant={canGrant}
          saving={save.isPending && save.variables.email === entry.email}
          deleting={remove.isPending && remove.variables.email === entry.email}
          onChange={(flags) => update(entry, { flags })}
          onSave={() => save.mutate(entry)}
          onCancel={() => setEntries((old) => old.filter((e) => e !== entry))}
          onDelete={() => remove.mutate(entry)}
        />
      ))}
    </Stack>
  );
}
