import { Button, Card, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { hasScope } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { Icon } from '../../components/icons';
import { InviteButton } from './InviteButton';
import { PAGE_SIZE, usersListQuery } from './api';

/** Users list: search by username, 10 per page. */
export default function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { scopes } = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [page, setPage] = useState(1);
  const users = useQuery(usersListQuery(page, debounced));
  const total = users.data?.paging.total ?? 0;
  const canEdit = hasScope(scopes, 'users.edit');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('users.title')}</Title>
        {canEdit && (
          <Group gap="xs">
            <InviteButton />
            <Button component={Link} to="/adduser" leftSection={<Icon name="plus" size={16} />}>
              {t('users.add.title')}
            </Button>
          </Group>
        )}
      </Group>
      <Card withBorder radius="md" padding={0}>
        <Stack p="md" gap="md">
          <TextInput
            placeholder={t('users.search')}
            aria-label={t('users.search')}
            leftSection={<Icon name="search" size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          <Table highlightOnHover verticalSpacing="sm" data-testid="users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.username')}</Table.Th>
                <Table.Th>{t('fields.email')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data?.users.map((user) => (
                <Table.Tr
                  key={user.id}
                  style={{ cursor: 'pointer' }}
                  onClick={() => void navigate(`/user/${user.id}`)}
                >
                  <Table.Td fw={600}>{user.username}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {users.data?.users.length === 0 && (
            <Text c="dimmed" ta="center" py="md">
              {t('users.empty')}
            </Text>
          )}
          {total > PAGE_SIZE && (
            <Group justify="center">
              <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />
            </Group>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
