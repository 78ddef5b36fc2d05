import type { BackupCheckResult, BackupNodeStatus } from '@hearth/contract/backups';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../i18n/format';

/** restic's version, the last check and prune with their outcome, and when the next ones run. */
export function CheckStatus({ status }: { status: BackupNodeStatus }) {
  const { t } = useTranslation();
  const result = (kind: 'lastCheck' | 'lastPrune', r: BackupCheckResult | null) =>
    r === null
      ? t(`nodes.backups.${kind}.none`)
      : t(`nodes.backups.${kind}.${r.ok ? 'ok' : 'failed'}`, {
          when: formatDateTime(r.at),
          error: r.error ?? '',
        });
  return (
    <Stack gap={2}>
      <Text size="sm" c={status.restic ? 'dimmed' : 'red'}>
        {status.restic
          ? t('nodes.backups.restic', { version: status.restic })
          : t('nodes.backups.resticMissing')}
      </Text>
      <Text
        size="sm"
        c={status.lastCheck?.ok === false ? 'red' : 'dimmed'}
        data-testid="node-backups-last-check"
      >
        {result('lastCheck', status.lastCheck)}
      </Text>
      <Text size="sm" c={status.lastPrune?.ok === false ? 'red' : 'dimmed'}>
        {result('lastPrune', status.lastPrune)}
      </Text>
      {status.nextCheck !== null && (
        <Text size="sm" c="dimmed">
          {t('nodes.backups.nextCheck', { when: formatDateTime(status.nextCheck) })}
        </Text>
      )}
      {status.nextPrune !== null && (
        <Text size="sm" c="dimmed">
          {t('nodes.backups.nextPrune', { when: formatDateTime(status.nextPrune) })}
        </Text>
      )}
    </Stack>
  );
}
