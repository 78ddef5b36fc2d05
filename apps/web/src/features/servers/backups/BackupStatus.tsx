import type { BackupList } from '@hearth/contract/backups';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../i18n/format';

/** The last operation's outcome and the next scheduled backup. */
export function BackupStatus({ list }: { list: BackupList }) {
  const { t } = useTranslation();
  const { last, nextScheduled } = list;
  return (
    <Stack gap={2}>
      <Text size="sm" c={last && !last.ok ? 'red' : 'dimmed'} data-testid="backup-last">
        {last
          ? t(last.ok ? `servers.backups.last.ok.${last.kind}` : `servers.backups.last.failed.${last.kind}`, {
              when: formatDateTime(last.at),
              error: last.error ? t(`errors.${last.error.code}`, { defaultValue: last.error.msg }) : '',
            })
          : t('servers.backups.last.none')}
      </Text>
      <Text size="sm" c="dimmed" data-testid="backup-next">
        {nextScheduled
          ? t('servers.backups.next', { when: formatDateTime(nextScheduled) })
          : t('servers.backups.noSchedule')}
      </Text>
    </Stack>
  );
}
