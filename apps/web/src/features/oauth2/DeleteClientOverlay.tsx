import { Alert, Button, Group, Modal, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import type { OauthClientView } from '@hearth/contract/accounts';

interface DeleteClientOverlayProps {
  client: OauthClientView | null;
  loading: boolean;
  onCancel: () => void;
  onDelete: (client: OauthClientView) => void;
}

/** Titled with the client name; Delete stays disabled until the confirmation switch is on. */
export function DeleteClientOverlay({ client, loading, onCancel, onDelete }: DeleteClientOverlayProps) {
  const { t } = useTranslation();
  const [confirmed, setConfirmed] = useState(false);
  const close = () => {
    setConfirmed(false);
    onCancel();
  };
  return (
    <Modal
      opened={client !== null}
      onClose={close}
      title={client ? clientName(client, t) : ''}
      centered
      size={600}
    >
      <Stack>
        <Alert color="red" icon={<Icon name="alert" />}>
          {t('oauth2.delete.warning')}
        </Alert>
        <Switch
          label={t('oauth2.delete.confirm')}
          checked={confirmed}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            disabled={!confirmed}
            loading={loading}
            onClick={() => {
              if (client) onDelete(client);
              setConfirmed(false);
            }}
          >
            {t('common.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function clientName(client: OauthClientView, t: (key: string) => string): string {
  return client.name || t('oauth2.unnamed');
}
