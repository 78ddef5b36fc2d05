/**
 * The running operation's figures from the live socket (`backup-progress`, `backup-done`; docs/backups.md §
 * Progress). The daemon sends them only to sockets whose token holds viewServerBackups, and the panel opens
 * the socket for viewServerConsole holders: a user with the backup flags only sees the running operation from
 * the list (polled while one runs) without figures.
 */
import type { BackupProgressData } from '@hearth/contract/backup-events';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ServerLive } from '../useServerLive';
import { backupKeys } from './api';

export function useBackupProgress(serverId: string, live: ServerLive): BackupProgressData | null {
  const [progress, setProgress] = useState<BackupProgressData | null>(null);
  const queryClient = useQueryClient();
  useEffect(
    () =>
      live.subscribeBackups((event) => {
        if (event.type === 'backup-progress') return setProgress(event.data);
        setProgress(null);
        void queryClient.invalidateQueries({ queryKey: backupKeys.list(serverId) });
      }),
    [live, queryClient, serverId],
  );
  return progress;
}
