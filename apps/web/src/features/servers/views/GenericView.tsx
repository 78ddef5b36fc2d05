import { Card, Group } from '@mantine/core';
import { playerAddress } from '@hearth/contract/server-address';
import { useTranslation } from 'react-i18next';
import type { TypeViewProps } from './typeViews';
import { InfoItem } from './InfoItem';

/** The fallback view: address, node and type. */
export function GenericView({ server }: TypeViewProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid="type-view-generic">
      <Group gap="xl">
        <InfoItem
          label={t('servers.list.address')}
          value={playerAddress(server, window.location.hostname)}
          copy
          testId="server-address"
        />
        <InfoItem label={t('servers.list.node')} value={server.node.name} />
        {server.type && <InfoItem label={t('servers.detail.type')} value={server.type} />}
      </Group>
    </Card>
  );
}
