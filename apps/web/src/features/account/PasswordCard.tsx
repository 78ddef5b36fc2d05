import { Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { useValidators } from '../auth/useValidators';
import { accountApi } from './api';

/** Change password: old, new and its confirmation. */
export function PasswordCard() {
  const { t } = useTranslation();
  const v = useValidators();
  const form = useForm({
    initialValues: { password: '', newPassword: '', confirm: '' },
    validate: { password: v.required, newPassword: v.password, confirm: v.confirm },
  });
  const save = useMutation({
    mutationFn: accountApi.changePassword,
    onSuccess: () => {
      notifySuccess(t('account.password.changed'));
      form.reset();
    },
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={form.onSubmit(({ password, newPassword }) => save.mutate({ password, newPassword }))}>
        <Stack>
          <Title order={4}>{t('account.password.title')}</Title>
          <PasswordInput
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('fields.newPassword')}
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('account.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
