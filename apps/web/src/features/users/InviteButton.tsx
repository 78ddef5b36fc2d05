import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { usersApi } from './api';

/** Invites someone by e-mail; they finish their account from the link they receive. */
export function InviteButton() {
  const { t } = useTranslation();
  const [opened, modal] = useDisclosure(false);
  const [email, setEmail] = useState('');
  const invite = useMutation({
    mutationFn: usersApi.invite,
    onSuccess: () => {
      notifySuccess(t('users.invite.sent', { email }));
      setEmail('');
      modal.close();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) invite.mutate(email.trim());
  };
  return (
    <>
      <Button variant="default" onClick={modal.open}>
        {t('users.invite.button')}
      </Button>
      <Modal opened={opened} onClose={modal.close} title={t('users.invite.title')} centered>
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label={t('fields.email')}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={modal.close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
                {t('users.invite.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
