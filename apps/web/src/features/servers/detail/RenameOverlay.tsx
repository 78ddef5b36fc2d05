import { Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverKeys, serversApi } from '../api';
import { serverNameError } from '../variables/values';
import { DialogActions } from '../../../components/DialogActions';

interface Props {
  serverId: string;
  current: string;
  opened: boolean;
  onClose: () => void;
}

/** Rename overlay: a name field, Cancel and Save; the same name rule as creation. */
export function RenameOverlay({ serverId, current, opened, onClose }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(current);
  const [touched, setTouched] = useState(false);
  const error = serverNameError(name);
  const rename = useMutation({
    mutationFn: () => serversApi.rename(serverId, name.trim()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
      onClose();
    },
  });
  const save = () => {
    setTouched(true);
    if (!error) rename.mutate();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('servers.rename.title')} centered>
      <Stack>
        <TextInput
          label={t('fields.name')}
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
          }}
          error={touched && error ? t(error) : undefined}
        />
        <DialogActions onCancel={onClose} onSave={save} loading={rename.isPending} />
      </Stack>
    </Modal>
  );
}
