import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** New file / new folder: one name field; Create stays disabled while the name is blank. */
export function CreateDialog(props: {
  kind: 'file' | 'folder';
  busy: boolean;
  onCreate: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const valid = name.trim() !== '';
  const submit = () => valid && props.onCreate(name.trim());
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t(props.kind === 'file' ? 'servers.files.newFile' : 'servers.files.newFolder')}
      data-testid="file-create-dialog"
    >
      <Stack>
        <TextInput
          label={t('servers.files.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && submit()}
          data-autofocus
          data-testid="file-create-name"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!valid} loading={props.busy} onClick={submit} data-testid="file-create-submit">
            {t('servers.files.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The delete dialog is 600 wide; with `names` it confirms deleting the ticked entries together. */
export function DeleteDialog(props: {
  name: string;
  names?: string[];
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={props.onClose}
      size={600}
      title={
        props.names
          ? t('servers.files.deleteSelectedTitle')
          : t('servers.files.deleteTitle', { name: props.name })
      }
      data-testid="file-delete-dialog"
    >
      <Stack>
        <Text style={{ overflowWrap: 'anywhere' }}>
          {props.names
            ? t('servers.files.deleteSelectedConfirm', { names: props.names.join(', ') })
            : t('servers.files.deleteConfirm', { name: props.name })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={props.busy}
            onClick={props.onConfirm}
            data-testid="file-delete-confirm"
          >
            {t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
