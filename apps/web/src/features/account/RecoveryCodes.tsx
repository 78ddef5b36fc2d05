import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableText } from '../../components/CopyableText';
import { accountApi, accountKeys, selfQuery } from './api';

/** A new set of recovery codes, shown once until the user says they saved them. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack w="100%" data-testid="recovery-codes">
      <Alert color="yellow">{t('account.otp.recovery.hint')}</Alert>
      <CopyableText
        label={t('account.otp.recovery.title')}
        value={codes.join('\n')}
        testId="recovery-code-list"
      />
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('account.otp.recovery.saved')}</Button>
      </Group>
    </Stack>
  );
}

/**
 * With two-factor on: how many recovery codes are left, and a new set for the current password and an app code
 * (docs/security.md § Two-factor).
 */
export function RecoveryCodesPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const self = useQuery(selfQuery);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const regenerate = useMutation({
    mutationFn: accountApi.regenerateRecovery,
    onSuccess: async (reply) => {
      setCodes(reply.recoveryCodes);
      setAsking(false);
      setPassword('');
      setCode('');
      await queryClient.invalidateQueries({ queryKey: accountKeys.self() });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password && code.trim()) regenerate.mutate({ password, token: code.trim() });
  };
  if (codes) return <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />;
  return (
    <Stack w="100%" gap="xs">
      <Text size="sm" data-testid="recovery-left">
        {t('account.otp.recovery.left', { count: self.data?.recoveryCodesLeft ?? 0 })}
      </Text>
      {asking ? (
        <form onSubmit={submit}>
          <Stack>
            <PasswordInput
              label={t('fields.password')}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <TextInput
              label={t('login.otp.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              data-testid="recovery-otp"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={regenerate.isPending} disabled={!password || !code.trim()}>
                {t('account.otp.recovery.regenerate')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group justify="flex-start">
          <Button variant="light" onClick={() => setAsking(true)}>
            {t('account.otp.recovery.regenerate')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
