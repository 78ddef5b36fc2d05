import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { usersApi, usersKeys } from './api';

/** Deletes a user after a confirmation dialog, then returns to the list. */
export function DeleteUserButton({ id, username }: { id: string; username: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <ConfirmDeleteButton
      title={t('users.delete.title', { username })}
      onDelete={() => usersApi.remove(id)}
      onDeleted={async () => {
        notifySuccess(t('users.deleted'));
        await queryClient.invalidateQueries({ queryKey: usersKeys.all });
        void navigate('/user');
      }}
    >
      <Text>{t('users.delete.warning')}</Text>
    </ConfirmDeleteButton>
  );
}
