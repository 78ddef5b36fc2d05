import { Alert, Button, Card, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  emptyPanelPermissions,
  panelPermissions,
  panelScopeOf,
  type PanelPermission,
  type PanelPermissionSet,
} from '@hearth/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { hasScope, isAdmin } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { PageLoader } from '../../components/PageLoader';
import { useValidators } from '../auth/useValidators';
import { DeleteUserButton } from './DeleteUserButton';
import { ResetOtpButton } from './ResetOtpButton';
import { PermissionSwitches } from './PermissionSwitches';
import { permsQuery, userQuery, usersApi, usersKeys } from './api';

/** Edit user (/user/:id) and Add user (/adduser): details plus permission switches. */
export default function UserPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const isNew = id === undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const v = useValidators();
  const user = useQuery({ ...userQuery(id ?? ''), enabled: !isNew });
  const perms = useQuery({ ...permsQuery(id ?? ''), enabled: !isNew });
  const [flags, setFlags] = useState<PanelPermissionSet>(emptyPanelPermissions);
  // A non-admin changes only flags they hold, and no account holding more than they do (docs/security.md
  // § Authorization; server access is checked by the panel, which answers ErrCannotEditUser).
  const { scopes } = useSession();
  const canChange = isAdmin(scopes)
    ? undefined
    : (perm: PanelPermission) => hasScope(scopes, panelScopeOf[perm]);
  const locked =
    canChange !== undefined &&
    perms.data !== undefined &&
    panelPermissions.some((p) => perms.data[p] && !canChange(p));
  const form = useForm({
    initialValues: { username: '', email: '', password: '' },
    validate: { username: v.username, email: v.email, password: (p) => (isNew || p ? v.password(p) : null) },
  });
  const { setValues } = form;
  useEffect(() => {
    if (user.data) setValues({ username: user.data.username, email: user.data.email });
  }, [user.data, setValues]);
  useEffect(() => {
    if (perms.data) setFlags(perms.data);
  }, [perms.data]);

  const save = useMutation({
    mutationFn: async (values: { username: string; email: string; password: string }) => {
      const password = values.password || undefined;
      const userId = isNew
        ? (await usersApi.create({ ...values })).id
        : (await usersApi.update(id, { username: values.username, email: values.email, password }), id);
      await usersApi.setPerms(userId, flags);
      return userId;
    },
    onSuccess: async (userId) => {
      notifySuccess(t('users.saved'));
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
      if (isNew) void navigate(`/user/${userId}`, { replace: true });
      else form.setFieldValue('password', '');
    },
  });
  if (!isNew && (user.isPending || perms.isPending)) return <PageLoader />;
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
      <Stack>
        <Group justify="space-between">
          <Title order={2}>
            {isNew ? t('users.add.title') : (user.data?.username ?? t('users.edit.title'))}
          </Title>
          {!isNew && !locked && (
            <Group gap="xs">
              <ResetOtpButton id={id} username={user.data?.username ?? ''} />
              <DeleteUserButton id={id} username={user.data?.username ?? ''} />
            </Group>
          )}
        </Group>
        {locked && (
          <Alert color="yellow" data-testid="user-locked">
            {t('users.locked')}
          </Alert>
        )}
        <Card withBorder radius="md" padding="lg">
          <Stack>
            <Title order={4}>{t('users.details')}</Title>
            <TextInput label={t('fields.username')} disabled={locked} {...form.getInputProps('username')} />
            <TextInput
              label={t('fields.email')}
              type="email"
              disabled={locked}
              {...form.getInputProps('email')}
            />
            <PasswordInput
              label={t('fields.password')}
              description={isNew ? undefined : t('users.passwordHint')}
              autoComplete="new-password"
              disabled={locked}
              {...form.getInputProps('password')}
            />
          </Stack>
        </Card>
        <PermissionSwitches value={flags} disabled={locked} canChange={canChange} onChange={setFlags} />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={locked}>
            {isNew ? t('users.create') : t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
