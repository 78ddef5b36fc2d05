import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Asked before unsaved edits are thrown away (closing the editor, leaving the page). */
export function DiscardDialog(props: { name: string; onKeep: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={props.onKeep}
      title={t('servers.files.discardTitle')}
      zIndex={400}
      data-testid="file-discard-dialog"
    >
      <Stack>
        <Text>{t('servers.files.discardConfirm', { name: props.name })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onKeep} data-autofocus data-testid="file-discard-keep">
            {t('servers.files.keepEditing')}
          </Button>
          <Button color="red" onClick={props.onDiscard} data-testid="file-discard-confirm">
            {t('servers.files.discard')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
