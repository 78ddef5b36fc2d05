import { ActionIcon, Anchor, Badge, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '@hearth/contract/servers';
import { selfQuery } from '../../account/api';
import { sftpInfo } from './sftp';

/** The "copied to clipboard" chip stays 6000 ms. */
export const COPY_CHIP_MS = 6000;

function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: COPY_CHIP_MS });
  return (
    <Group justify="space-between" wrap="nowrap">
      <div>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text ff="monospace" data-testid={testId}>
          {value}
        </Text>
      </div>
      <Group gap="xs" wrap="nowrap">
        {clipboard.copied && (
          <Badge color="green" variant="light" data-testid={`${testId}-copied`}>
            {t('servers.sftp.copied')}
          </Badge>
        )}
        <Tooltip label={t('servers.sftp.copy')}>
          <ActionIcon
            variant="light"
            aria-label={`${t('servers.sftp.copy')} ${label}`}
            onClick={() => clipboard.copy(value)}
          >
            ⧉
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

/** SFTP information: host:port, username `email|serverId`, the password note and a connect link. */
export function SftpCard({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const self = useQuery(selfQuery);
  const info = sftpInfo(server, self.data?.email ?? '', window.location.hostname);
  return (
    <Card withBorder radius="md" padding="md" data-testid="sftp-card">
      <Stack gap="sm">
        <Text fw={600}>{t('servers.sftp.title')}</Text>
        <CopyRow label={t('servers.sftp.host')} value={info.address} testId="sftp-address" />
        <CopyRow label={t('servers.sftp.username')} value={info.username} testId="sftp-username" />
        <Text size="sm" c="dimmed">
          {t('servers.sftp.passwordNote')}
        </Text>
        <Anchor href={info.url} data-testid="sftp-connect">
          {t('servers.sftp.connect', { address: info.address })}
        </Anchor>
      </Stack>
    </Card>
  );
}
