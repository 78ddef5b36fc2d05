import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionResponse } from '@hearth/contract/auth';
import { authApi } from './api';

interface OtpPromptProps {
  opened: boolean;
  onClose: () => void;
  onSuccess: (reply: SessionResponse) => void;
}

/** The two-factor code prompt: one input; Enter or the Login button confirms. */
export function OtpPrompt({ opened, onClose, onSuccess }: OtpPromptProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const submit = useMutation({ mutationFn: authApi.otp, onSuccess, onError: () => setCode('') });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) submit.mutate(code.trim());
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('login.otp.title')} centered>
      <form onSubmit={onSubmit}>
        <Stack>
          <TextInput
            label={t('login.otp.code')}
            description={`${t('login.otp.hint')} ${t('login.otp.recoveryHint')}`}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            autoComplete="one-time-code"
            data-autofocus
            data-testid="otp-input"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={submit.isPending} disabled={!code.trim()}>
              {t('login.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
