import { Alert } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { authApi } from './api';
import { AuthCard } from './AuthCard';
import { NewAccountForm } from './NewAccountForm';
import { useCompleteLogin } from './useCompleteLogin';

/** Accepting an invitation: the link carries a single-use token; the person picks username and password. */
export default function InvitePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email');
  const completeLogin = useCompleteLogin();
  const accept = useMutation({
    mutationFn: authApi.invite,
    onSuccess: (reply) => completeLogin(reply.session, reply.scopes),
  });
  return (
    <AuthCard
      title={t('invite.title')}
      subtitle={email ? t('invite.subtitleFor', { email }) : t('invite.subtitle')}
    >
      {token ? (
        <NewAccountForm
          submitLabel={t('invite.submit')}
          loading={accept.isPending}
          withEmail={false}
          onSubmit={({ username, password }) => accept.mutate({ token, username, password })}
        />
      ) : (
        <Alert color="red">{t('errors.ErrInviteLinkInvalid')}</Alert>
      )}
    </AuthCard>
  );
}
