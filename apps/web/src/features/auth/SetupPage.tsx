import { Alert } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { NewAccountForm } from './NewAccountForm';
import { useCompleteLogin } from './useCompleteLogin';

/** The one-time link printed on first start: creates the first administrator and logs them in. */
export default function SetupPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const completeLogin = useCompleteLogin();
  const setup = useMutation({
    mutationFn: authApi.setup,
    onSuccess: (reply) => completeLogin(reply.session, reply.scopes),
  });
  return (
    <AuthCard title={t('setup.title')} subtitle={t('setup.subtitle')}>
      {token ? (
        <NewAccountForm
          submitLabel={t('setup.submit')}
          loading={setup.isPending}
          onSubmit={(values) => setup.mutate({ ...values, token })}
        />
      ) : (
        <Alert color="red">{t('errors.ErrSetupTokenInvalid')}</Alert>
      )}
    </AuthCard>
  );
}
