import { Button, Card, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { useValidators } from '../auth/useValidators';
import { accountApi, accountKeys, selfQuery } from './api';

/** Change username and e-mail; the current password confirms it. */
export function InfoCard() {
  const { t } = useTranslation();
  const v = useValidators();
  const queryClient = useQueryClient();
  const self = useQuery(selfQuery);
  const form = useForm({
    initialValues: { username: '', email: '', password: '' },
    validate: { username: v.username, email: v.email, password: v.required },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!self.data) return;
    setValues({ username: self.data.username, email: self.data.email });
    resetDirty();
  }, [self.data]);
  const save = useMutation({
    mutationFn: accountApi.changeInfo,
    onSuccess: async () => {
      notifySuccess(t('account.info.changed'));
      form.setFieldValue('password', '');
      await queryClient.invalidateQueries({ queryKey: accountKeys.self() });
    },
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
        <Stack>
          <Title order={4}>{t('account.info.title')}</Title>
          <TextInput label={t('fields.username')} {...form.getInputProps('username')} />
          <TextInput label={t('fields.email')} type="email" {...form.getInputProps('email')} />
          <PasswordInput
            label={t('fields.currentPassword')}
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={self.isPending}>
              {t('account.info.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
