import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icons';

interface Props {
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * Install on a running server stops it and runs the template's install steps again, which rewrite the files
 * they create (docs/daemon.md § Server states): asked first, saying so.
 */
export function InstallConfirm({ opened, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onCancel} title={t('servers.controls.installConfirmTitle')} centered>
      <Stack>
        <Alert color="orange" icon={<Icon name="alert" />}>
          {t('servers.controls.installConfirmStops')}
        </Alert>
        <Text size="sm">{t('servers.controls.installConfirmOverwrites')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button color="orange" onClick={onConfirm}>
            {t('servers.controls.installConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
