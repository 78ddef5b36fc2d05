import { Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActions } from '../../components/DialogActions';

interface CreateClientOverlayProps {
  opened: boolean;
  loading: boolean;
  onCancel: () => void;
  onCreate: (values: { name: string; description: string }) => void;
}

/** Name and description (no client-side validation); Enter in the description creates. */
export function CreateClientOverlay({ opened, loading, onCancel, onCreate }: CreateClientOverlayProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const clear = () => {
    setName('');
    setDescription('');
  };
  const create = () => {
    onCreate({ name, description });
    clear();
  };
  const cancel = () => {
    clear();
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={cancel} title={t('oauth2.create.title')} centered>
      <Stack>
        <TextInput
          label={t('fields.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
        />
        <TextInput
          label={t('fields.description')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') create();
          }}
        />
        <DialogActions
          onCancel={cancel}
          onSave={create}
          loading={loading}
          saveLabel={t('oauth2.create.submit')}
        />
      </Stack>
    </Modal>
  );
}
