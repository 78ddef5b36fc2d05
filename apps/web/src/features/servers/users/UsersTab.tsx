import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { emptyServerPermissions } from '@hearth/contract';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import { serverKeys, serversApi, serverUsersQuery, type ServerUser } from '../api';
import type { ServerTabProps } from '../tabs';
import { UserEntry, type Entry } from './UserEntry';

function toEntry(user: ServerUser): Entry {
  const { email, username, ...flags } = user;
  const base = emptyServerPermissions();
  for (const key of Object.keys(base) as (keyof typeof base)[]) base[key] = flags[key] === true;
  return { email, username, flags: base, isNew: false };
}

/** Users tab: who has access and with which flags; add by e-mail, local until saved (SPEC §2, §5). */
export default function UsersTab({ server }: ServerTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const users = useQuery(serverUsersQuery(server.id));
  const [entries, setEntries] = useState<Entry[]>([]);
  const [email, setEmail] = useState('');
  useEffect(() => {
    // A reload keeps entries still being added here.
    if (users.data) setEntries((old) => [...users.data.map(toEntry), ...old.filter((e) => e.isNew)]);
  }, [users.data]);
  const reload = () => queryClient.invalidateQueries({ queryKey: serverKeys.users(server.id) });
  const save = useMutation({
    mutationFn: (entry: Entry) => serversApi.setUser(server.id, entry.email, entry.flags),
    onSuccess: async (_r, entry) => {
      notifySuccess(t('servers.users.saved'));
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
        { email: address, username: '', flags: emptyServerPermissions(), isNew: true },
      ]);
    }
    setEmail('');
  };
  const update = (target: Entry, patch: Partial<Entry>) =>
    setEntries((old) => old.map((e) => (e.email === target.email ? { ...e, ...patch } : e)));
  if (users.isPending) return <PageLoader />;
  return (
    // Room below the last entry: the sticky tab bar would otherwise cover its switches and buttons.
    <Stack data-testid="users-tab" pb={96}>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Title order={4}>{t('servers.users.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('servers.users.description')}
          </Text>
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
      {entries.map((entry) => (
        <UserEntry
          key={entry.email}
          entry={entry}
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
