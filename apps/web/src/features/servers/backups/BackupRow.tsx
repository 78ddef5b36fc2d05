import type { Backup } from '@hearth/contract/backups';
import type { ServerPermissionsView } from '@hearth/contract/servers';
import { Anchor, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { ConfirmDeleteButton } from '../../../components/ConfirmDeleteButton';
import { formatBytes, formatDateTime, formatNumber } from '../../../i18n/format';
import { backupsApi, downloadUrl } from './api';
import { useBackupWho } from './useBackupWho';

export type Can = (flag: keyof ServerPermissionsView) => boolean;

interface Props {
  serverId: string;
  backup: Backup;
  can: Can;
  /** The panel scope servers.admin: who asked is shown by name (useBackupWho). */
  admin: boolean;
  /** An operation runs on the server: restore and delete would be refused (ErrBackupBusy). */
  busy: boolean;
  onBrowse: () => void;
  onRestore: () => void;
  onChanged: () => Promise<void>;
}

const size = (bytes: number | null) => (bytes === null ? '—' : formatBytes(bytes));

/** One snapshot: its figures, and the actions the caller's flags allow. */
export function BackupRow({ serverId, backup, admin, can, busy, onBrowse, onRestore, onChanged }: Props) {
  const { t } = useTranslation();
  const who = useBackupWho(backup.by, admin);
  const lock = useMutation({
    mutationFn: () => backupsApi.lock(serverId, backup.id, !backup.locked),
    onSuccess: onChanged,
    onError: notifyError,
  });
  return (
    <Group justify="space-between" data-testid={`backup-${backup.shortId}`} className="backup-row">
      <Stack gap={2}>
        <Group gap="xs">
          <Text fw={500}>{formatDateTime(backup.time)}</Text>
          <Badge variant="light">{t(`servers.backups.trigger.${backup.trigger}`)}</Badge>
          {backup.locked && <Badge color="yellow">{t('servers.backups.locked')}</Badge>}
          {backup.asIs && (
            <Badge color="gray" data-testid="backup-as-is">
              {t('servers.backups.asIs')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed" data-testid="backup-figures">
          {t('servers.backups.figures', {
            added: size(backup.sizeAdded),
            total: size(backup.totalSize),
            files: backup.fileCount === null ? '—' : formatNumber(backup.fileCount),
          })}
          {who !== null && ` · ${t('servers.backups.by', { who })}`}
        </Text>
      </Stack>
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={onBrowse} data-testid="backup-browse">
          {t('servers.backups.browse')}
        </Button>
        {can('restoreServerBackups') && (
          <Button variant="light" size="xs" disabled={busy} onClick={onRestore} data-testid="backup-restore">
            {t('servers.backups.restore')}
          </Button>
        )}
        {can('downloadServerBackups') &&
          (['tar.gz', 'zip'] as const).map((format) => (
            <Anchor
              key={format}
              size="sm"
              href={downloadUrl(serverId, backup.id, '', format)}
              download
              data-testid={`backup-download-${format}`}
            >
              <Code>{`.${format}`}</Code>
            </Anchor>
          ))}
        {can('deleteServerBackups') && (
          <>
            <Button
              variant="default"
              size="xs"
              loading={lock.isPending}
              onClick={() => lock.mutate()}
              data-testid="backup-lock"
            >
              {t(backup.locked ? 'servers.backups.unlock' : 'servers.backups.lock')}
            </Button>
            {!backup.locked && (
              <ConfirmDeleteButton
                title={t('servers.backups.deleteTitle')}
                onDelete={() => backupsApi.remove(serverId, backup.id)}
                onDeleted={async () => {
                  notifySuccess(t('servers.backups.deleted'));
                  await onChanged();
                }}
              >
                <Text>{t('servers.backups.deleteText', { when: formatDateTime(backup.time) })}</Text>
              </ConfirmDeleteButton>
            )}
          </>
        )}
      </Group>
    </Group>
  );
}
