import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import type { OtpEnrolment } from '@hearth/contract/accounts';
import { accountApi, accountKeys, otpStatusQuery } from './api';
import { CodeForm } from './CodeForm';
import { RecoveryCodesPanel, RecoveryCodesShown } from './RecoveryCodes';

/** Two-factor setup (QR code + secret, confirmed by a code) and removal (needs a current code). */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery(otpStatusQuery);
  const [enrolment, setEnrolment] = useState<OtpEnrolment | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.all });
  const start = useMutation({ mutationFn: accountApi.startOtp, onSuccess: setEnrolment });
  const confirm = useMutation({
    mutationFn: accountApi.confirmOtp,
    onSuccess: async (reply) => {
      setEnrolment(null);
      setCodes(reply.recoveryCodes);
      notifySuccess(t('account.otp.enabled'));
      await refresh();
    },
  });
  const disable = useMutation({
    mutationFn: accountApi.disableOtp,
    onSuccess: async () => {
      setDisabling(false);
      notifySuccess(t('account.otp.disabled'));
      await refresh();
    },
  });
  const enabled = status.data?.otpEnabled ?? false;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('account.otp.title')}</Title>
          {status.data && (
            <Badge color={enabled ? 'green' : 'gray'} variant="light" data-testid="otp-status">
              {enabled ? t('account.otp.on') : t('account.otp.off')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('account.otp.description')}
        </Text>
        {codes ? (
          <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />
        ) : enrolment ? (
          <Stack align="center">
            <img src={enrolment.img} alt={t('account.otp.qrAlt')} width={200} height={200} />
            <Text size="sm">{t('account.otp.secretHint')}</Text>
            <Text ff="monospace" fw={600} data-testid="otp-secret">
              {enrolment.secret}
            </Text>
            <CodeForm
              submitLabel={t('account.otp.confirm')}
              loading={confirm.isPending}
              onSubmit={confirm.mutate}
            />
          </Stack>
        ) : disabling ? (
          <CodeForm
            submitLabel={t('account.otp.remove')}
            color="red"
            loading={disable.isPending}
            onSubmit={disable.mutate}
          />
        ) : (
          <>
            {enabled && <RecoveryCodesPanel />}
            <Group justify="flex-end">
              {enabled ? (
                <Button color="red" variant="light" onClick={() => setDisabling(true)}>
                  {t('account.otp.remove')}
                </Button>
              ) : (
                <Button onClick={() => start.mutate()} loading={start.isPending} disabled={status.isPending}>
                  {t('account.otp.setup')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
