import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteCreated } from '@hearth/contract/accounts';
import { InvitationResult } from './InvitationResult';
import { usersApi, usersKeys } from './api';

/**
 * Invites someone by e-mail; they finish their account from the link. The dialog then says whether the mail
 * went out and offers the link to copy (docs/security.md § Invitations), and the list shows the pending account.
 */
export function InviteButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [opened, modal] = useDisclosure(false);
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<InviteCreated | null>(null);
  const invite = useMutation({
    mutationFn: usersApi.invite,
    onSuccess: async (created) => {
      setResult(created);
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
  });
  const close = () => {
    setResult(null);
    modal.close();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) invite.mutate(email.trim());
  };
  return (
    <>
      <Button variant="default" onClick={modal.open}>
        {t('users.invite.button')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('users.invite.title')} centered>
        {result ? (
          <Stack>
            <InvitationResult invitation={result} />
            <Group justify="flex-end">
              <Button onClick={close}>{t('common.close')}</Button>
            </Group>
          </Stack>
        ) : (
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
                <Button variant="default" onClick={close}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
                  {t('users.invite.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
