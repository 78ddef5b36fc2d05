import { Alert } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { NewAccountForm } from './NewAccountForm';
import { useCompleteLogin } from './useCompleteLogin';

/**
 * The one-time link printed on first start: creates the first administrator and logs them in. The link is
 * checked on load, so a used or bogus one says so before anyone types (docs/api.md § Auth).
 */
export default function SetupPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const completeLogin = useCompleteLogin();
  const valid = useQuery({
    queryKey: ['setup-check', token],
    queryFn: async () => {
      await authApi.checkSetup(token);
      return true;
    },
    enabled: token !== '',
    retry: false,
  });
  const setup = useMutation({
    mutationFn: authApi.setup,
    onSuccess: (reply) => completeLogin(reply.session, reply.scopes),
  });
  return (
    <AuthCard title={t('setup.title')} subtitle={t('setup.subtitle')}>
      {token && valid.isPending ? (
        <PageLoader />
      ) : token && valid.data ? (
        <NewAccountForm
          submitLabel={t('setup.submit')}
          loading={setup.isPending}
          onSubmit={(values) => setup.mutate({ ...values, token })}
        />
      ) : (
        <Alert color="red" data-testid="setup-invalid">
          {t('errors.ErrSetupTokenInvalid')}
        </Alert>
      )}
    </AuthCard>
  );
}
