import { Alert, Anchor, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { AuthSubmit, EmailInput } from './AuthFields';
import { useValidators } from './useValidators';

/** The address to mail a link to; the answer is the same whether or not it has an account. */
function RequestForm() {
  const { t } = useTranslation();
  const v = useValidators();
  const form = useForm({ initialValues: { email: '' }, validate: { email: v.email } });
  const request = useMutation({ mutationFn: authApi.forgotPassword });
  if (request.isSuccess)
    return (
      <Alert color="green" data-testid="reset-requested">
        {t('reset.requested')}
      </Alert>
    );
  return (
    <form onSubmit={form.onSubmit(({ email }) => request.mutate(email))}>
      <Stack>
        <EmailInput {...form.getInputProps('email')} />
        <AuthSubmit loading={request.isPending}>{t('reset.requestSubmit')}</AuthSubmit>
      </Stack>
    </form>
  );
}

/** The new password for the link's account; every session of it ends. */
function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const v = useValidators();
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: { password: v.password, confirm: v.confirm },
  });
  const reset = useMutation({ mutationFn: authApi.resetPassword });
  if (reset.isSuccess)
    return (
      <Alert color="green" data-testid="reset-done">
        {t('reset.done')}
      </Alert>
    );
  return (
    <form onSubmit={form.onSubmit(({ password }) => reset.mutate({ token, password }))}>
      <Stack>
        <PasswordInput
          label={t('fields.password')}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('fields.confirmPassword')}
          autoComplete="new-password"
          {...form.getInputProps('confirm')}
        />
        <AuthSubmit loading={reset.isPending}>{t('reset.submit')}</AuthSubmit>
      </Stack>
    </form>
  );
}

/** "Forgot password" (docs/security.md § Password reset): without a token, ask for the address; with one, the new password. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <AuthCard title={t('reset.title')} subtitle={token ? t('reset.subtitle') : t('reset.requestSubtitle')}>
      {token ? <NewPasswordForm token={token} /> : <RequestForm />}
      <Text size="sm" ta="center">
        <Anchor component={Link} to="/auth/login">
          {t('login.submit')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
