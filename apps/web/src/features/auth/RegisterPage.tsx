import { Alert, Anchor, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { configQuery } from '../../api/queries';
import { LOGIN_PATH } from '../../app/routes';
import { PageLoader } from '../../components/PageLoader';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { NewAccountForm } from './NewAccountForm';
import { useCompleteLogin } from './useCompleteLogin';

export default function RegisterPage() {
  const { t } = useTranslation();
  const config = useQuery(configQuery);
  const completeLogin = useCompleteLogin();
  const register = useMutation({
    mutationFn: authApi.register,
    onSuccess: (reply) => {
      notifySuccess(t('register.success'));
      // Self-registered users start without permissions, so they land on Account.
      completeLogin(reply.session, reply.scopes);
    },
  });
  if (config.isPending) return <PageLoader />;
  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      {config.data?.registrationEnabled ? (
        <NewAccountForm
          submitLabel={t('register.submit')}
          loading={register.isPending}
          onSubmit={register.mutate}
        />
      ) : (
        <Alert color="gray">{t('register.disabled')}</Alert>
      )}
      <Text size="sm" ta="center">
        {t('register.haveAccount')}{' '}
        <Anchor component={Link} to={LOGIN_PATH}>
          {t('login.title')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
