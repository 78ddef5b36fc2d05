import { Badge } from '@mantine/core';
import type { PlayerCount as Count } from '@hearth/contract';
import { useTranslation } from 'react-i18next';

/**
 * Players online and slots, where the server's template declares a query and the game answered
 * (docs/daemon.md § Player counts); nothing at all for a game that is not known.
 */
export function PlayerCount({ players, testId }: { players: Count | null | undefined; testId: string }) {
  const { t } = useTranslation();
  if (!players) return null;
  return (
    <Badge variant="light" color="grape" data-testid={testId} style={{ textTransform: 'none' }}>
      {t('servers.players', { online: players.online, max: players.max })}
    </Badge>
  );
}
