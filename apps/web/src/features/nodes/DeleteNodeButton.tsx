import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { nodeKeys, nodesApi } from './api';

/** Deletes a node after confirmation; the panel refuses one that still has servers (ErrNodeHasServers). */
export function DeleteNodeButton({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <ConfirmDeleteButton
      title={t('nodes.delete.title', { name })}
      onDelete={() => nodesApi.remove(id)}
      onDeleted={async () => {
        notifySuccess(t('nodes.deleted'));
        await queryClient.invalidateQueries({ queryKey: nodeKeys.all });
        void navigate('/node');
      }}
    >
      <Text>{t('nodes.delete.warning')}</Text>
    </ConfirmDeleteButton>
  );
}
