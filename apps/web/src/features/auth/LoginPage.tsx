import { Alert, Anchor, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { configQuery } from '../../api/queries';
import { useSession } from '../../api/useSession';
import { landingPathFor } from '../../app/routes';
import { useAccess } from '../../app/useAccess';
import { PageLoader } from '../../components/PageLoader';
import type { SessionResponse } from '@hearth/contract/auth';
import { authApi, isOtpNeeded } from './api';
import { AuthCard } from './AuthCard';
import { AuthSubmit, EmailInput } from './AuthFields';
import { OtpPrompt } from './OtpPrompt';
import { useCompleteLogin } from './useCompleteLogin';
import { useValidators } from './useValidators';

export default function LoginPage() {
  const { t } = useTranslation();
  const { token, endedBecause } = useSession();
  const access = useAccess();
  const config = useQuery(configQuery).data;
  const registration = config?.registrationEnabled ?? false;
  // Offered only when the panel can mail the link (docs/security.md § Password reset).
  const passwordReset = config?.passwordResetEnabled ?? false;
  const v = useValidators();
  const completeLogin = useCompleteLogin();
  const [otpOpen, setOtpOpen] = useState(false);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: { email: v.required, password: v.required },
  });
  const done = (reply: SessionResponse) => completeLogin(reply.session, reply.scopes);
  const login = useMutation({
    mutationFn: authApi.login,
    onSuccess: (reply) => (isOtpNeeded(reply) ? setOtpOpen(true) : done(reply)),
  });

  if (token && !otpOpen && access.pending) return <PageLoader />;
  if (token && !otpOpen) return <Navigate to={landingPathFor(access)} replace />;
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      {endedBecause === 'timeout' && (
        <Alert color="yellow" data-testid="session-timed-out">
          {t('errors.ErrSessionTimedOut')}
        </Alert>
      )}
      <form onSubmit={form.onSubmit((values) => login.mutate(values))}>
        <Stack>
          <EmailInput {...form.getInputProps('email')} />
          <PasswordInput
            label={t('fields.password')}
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <AuthSubmit loading={login.isPending}>{t('login.submit')}</AuthSubmit>
        </Stack>
      </form>
      {passwordReset && (
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/auth/reset" data-testid="forgot-password">
            {t('login.forgot')}
          </Anchor>
        </Text>
      )}
      {registration && (
        <Text size="sm" ta="center">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/auth/register">
            {t('login.register')}
          </Anchor>
        </Text>
      )}
      <OtpPrompt opened={otpOpen} onClose={() => setOtpOpen(false)} onSuccess={done} />
    </AuthCard>
  );
}
