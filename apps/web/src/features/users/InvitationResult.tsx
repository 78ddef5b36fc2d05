import { Alert, Stack } from '@mantine/core';
import type { InviteCreated } from '@hearth/contract/accounts';
import { useTranslation } from 'react-i18next';
import { CopyableText } from '../../components/CopyableText';

/**
 * What became of an invitation (docs/security.md § Invitations): whether the mail went out, and the link to hand
 * over — answered once by the panel, so it is shown here and nowhere else.
 */
export function InvitationResult({ invitation }: { invitation: InviteCreated }) {
  const { t } = useTranslation();
  const sent = invitation.mail === 'sent';
  return (
    <Stack data-testid="invitation-result" data-mail={invitation.mail}>
      <Alert color={sent ? 'green' : 'yellow'} data-testid="invitation-mail">
        {invitation.mail === 'sent'
          ? t('users.invite.mail.sent', { email: invitation.email })
          : invitation.mail === 'noProvider'
            ? t('users.invite.mail.noProvider', { email: invitation.email })
            : t('users.invite.mail.failed', { email: invitation.email })}
      </Alert>
      <CopyableText label={t('users.invite.link')} value={invitation.link} testId="invitation-link" />
    </Stack>
  );
}
