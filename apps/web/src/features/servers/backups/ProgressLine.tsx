import type { BackupList } from '@hearth/contract/backups';
import type { BackupProgressData } from '@hearth/contract/backup-events';
import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../../../i18n/format';

interface Props {
  running: BackupList['running'];
  progress: BackupProgressData | null;
}

/** The running backup or restore: files, bytes and time left when the socket gives them. */
export function ProgressLine({ running, progress }: Props) {
  const { t } = useTranslation();
  const kind = progress?.kind ?? running?.kind;
  if (!kind) return null;
  const fraction = progress && progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : null;
  return (
    <Alert color="blue" data-testid="backup-progress">
      <Stack gap={4}>
        <Text fw={500}>{t(`servers.backups.running.${kind}`)}</Text>
        {progress && (
          <Text size="sm" data-testid="backup-progress-figures">
            {t('servers.backups.progress', {
              files: formatNumber(progress.filesDone),
              filesTotal: formatNumber(progress.filesTotal),
              bytes: formatBytes(progress.bytesDone),
              bytesTotal: formatBytes(progress.bytesTotal),
            })}
            {progress.etaSeconds !== null &&
              ` · ${t('servers.backups.eta', { seconds: formatNumber(Math.ceil(progress.etaSeconds)) })}`}
          </Text>
        )}
        {fraction !== null && <Progress value={Math.min(100, fraction * 100)} />}
      </Stack>
    </Alert>
  );
}
