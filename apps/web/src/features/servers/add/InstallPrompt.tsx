import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { serversApi } from '../api';

/** After creation: install now (and go to the server), or go there without installing. */
export function InstallPrompt({ serverId, name }: { serverId: string | null; name: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = () => void navigate(`/server/${serverId ?? ''}`);
  const install = useMutation({
    mutationFn: () => serversApi.power(serverId ?? '', 'install'),
    onSettled: open,
  });
  return (
    <Modal opened={serverId !== null} onClose={open} title={t('servers.add.created', { name })} centered>
      <Stack>
        <Text>{t('servers.add.installPrompt')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={open}>
            {t('servers.add.installLater')}
          </Button>
          <Button loading={install.isPending} onClick={() => install.mutate()}>
            {t('servers.add.installNow')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
