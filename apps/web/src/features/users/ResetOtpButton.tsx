import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { usersApi } from './api';

/**
 * Turns two-factor off for someone who lost their device, after a confirmation (docs/security.md § Two-factor).
 * The panel refuses it on an account holding more than the editor (ErrCannotEditUser), as for any change.
 */
export function ResetOtpButton({ id, username }: { id: string; username: string }) {
  const { t } = useTranslation();
  return (
    <ConfirmDeleteButton
      title={t('users.otpReset.title', { username })}
      label={t('users.otpReset.button')}
      onDelete={() => usersApi.resetOtp(id)}
      onDeleted={() => notifySuccess(t('common.saved'))}
    >
      <Text>{t('users.otpReset.warning')}</Text>
    </ConfirmDeleteButton>
  );
}
