import { ActionIcon, Group, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ServerView } from '@hearth/contract/servers';
import { useTranslation } from 'react-i18next';
import { StatusIndicator } from '../../../components/StatusIndicator';
import { PlayerCount } from '../PlayerCount';
import type { ServerPermissionsView } from '@hearth/contract/servers';
import type { ServerLive } from '../useServerLive';
import { RenameOverlay } from './RenameOverlay';
import { ServerControls } from './ServerControls';

const PENCIL = 'M4 20h4L18.5 9.5a2.8 2.8 0 0 0-4-4L4 16v4M13.5 6.5l4 4';

interface Props {
  server: ServerView;
  permissions: ServerPermissionsView;
  admin: boolean;
  live: ServerLive;
}

/** Status dot, name, rename pencil (edit rights only) and the controls. */
export function ServerHeader({ server, permissions, admin, live }: Props) {
  const { t } = useTranslation();
  const [renaming, rename] = useDisclosure(false);
  const canRename = admin || permissions.editServerData;
  // The live count (stats over the socket) when there is one, else the panel's cached one; none while offline.
  const players = live.status === 'online' ? (live.stats?.players ?? server.players) : undefined;
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <StatusIndicator
          variant="dot"
          status={live.status}
          label={t(`servers.status.${live.status}`)}
          testId="server-status"
        />
        <Title order={2} data-testid="server-name" dir="auto" style={{ overflowWrap: 'anywhere' }}>
          {server.name}
        </Title>
        {canRename && (
          <Tooltip label={t('servers.rename.title')}>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('servers.rename.title')}
              onClick={rename.open}
            >
              <svg
                width={18}
                height={18}
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth={1.8}
                aria-hidden="true"
              >
                <path d={PENCIL} />
              </svg>
            </ActionIcon>
          </Tooltip>
        )}
        <PlayerCount players={players} testId="server-players" />
      </Group>
      <ServerControls live={live} permissions={permissions} admin={admin} />
      {renaming && <RenameOverlay serverId={server.id} current={server.name} opened onClose={rename.close} />}
    </Group>
  );
}
