import type { Backup } from '@hearth/contract/backups';
import { Button, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import type { ServerTabProps } from '../tabs';
import { backupKeys, backupsApi, backupsQuery } from './api';
import { BackupRow } from './BackupRow';
import { BackupStatus } from './BackupStatus';
import { PolicyCard } from './PolicyCard';
import { ProgressLine } from './ProgressLine';
import { RestoreDialog, type RestoreRequest } from './RestoreDialog';
import { SnapshotBrowser } from './SnapshotBrowser';
import { useBackupProgress } from './useBackupProgress';

/** Backups tab (docs/backups.md): the snapshots with their actions, the running operation, the policy. */
export default function BackupsTab({ server, permissions, admin, live }: ServerTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const progress = useBackupProgress(server.id, live);
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    ...backupsQuery(server.id),
    // Without the socket's figures (no console flag) the list is what says an operation runs: poll it then.
    refetchInterval: (query) => (query.state.data?.running || creating ? 1000 : false),
  });
  const [browsing, setBrowsing] = useState<Backup | null>(null);
  const [restoring, setRestoring] = useState<RestoreRequest | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: backupKeys.list(server.id) });
  const create = useMutation({
    mutationFn: () => backupsApi.create(server.id),
    onMutate: () => setCreating(true),
    onSuccess: () => notifySuccess(t('servers.backups.created')),
    onError: notifyError,
    onSettled: async () => {
      setCreating(false);
      await refresh();
    },
  });
  if (!list.data) return <PageLoader />;
  const can = (flag: keyof typeof permissions) => admin || permissions[flag];
  const busy = list.data.running !== null || create.isPending;
  return (
    <Stack data-testid="backups-tab">
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Group justify="space-between">
            <Title order={4}>{t('servers.backups.title')}</Title>
            {can('createServerBackups') && (
              <Tooltip label={t('servers.backups.busy')} disabled={!busy}>
                <Button
                  onClick={() => create.mutate()}
                  disabled={busy}
                  loading={create.isPending}
                  data-testid="backup-create"
                >
                  {t('servers.backups.create')}
                </Button>
              </Tooltip>
            )}
          </Group>
          <BackupStatus list={list.data} />
          <ProgressLine
            running={list.data.running ?? (creating ? runningBackup : null)}
            progress={progress}
          />
          {list.data.backups.length === 0 && <Text c="dimmed">{t('servers.backups.empty')}</Text>}
          {list.data.backups.map((backup) => (
            <BackupRow
              key={backup.id}
              serverId={server.id}
              backup={backup}
              admin={admin}
              can={can}
              busy={busy}
              onBrowse={() => setBrowsing(backup)}
              onRestore={() => setRestoring({ backup, paths: [] })}
              onChanged={refresh}
            />
          ))}
        </Stack>
      </Card>
      <PolicyCard serverId={server.id} admin={admin} can={can} />
      {browsing && (
        <SnapshotBrowser
          serverId={server.id}
          backup={browsing}
          can={can}
          onClose={() => setBrowsing(null)}
          onRestore={(paths) => setRestoring({ backup: browsing, paths })}
        />
      )}
      {restoring && (
        <RestoreDialog
          serverId={server.id}
          nodeId={server.node.id}
          request={restoring}
          admin={admin}
          onClose={() => setRestoring(null)}
          onRestored={async () => {
            setRestoring(null);
            setBrowsing(null);
            await refresh();
          }}
        />
      )}
    </Stack>
  );
}

const runningBackup = { operation: '', kind: 'backup' as const };
