import { ActionIcon, Anchor, Badge, Card, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '@hearth/contract/servers';
import { selfQuery } from '../../account/api';
import { Icon } from '../../../components/icons';
import { sftpInfo } from './sftp';

/** The "copied to clipboard" chip stays 6000 ms. */
export const COPY_CHIP_MS = 6000;

function CopyRow({
  label,
  value,
  testId,
  block = false,
}: {
  label: string;
  value: string;
  testId: string;
  block?: boolean;
}) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: COPY_CHIP_MS });
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        {block ? (
          <Code block data-testid={testId}>
            {value}
          </Code>
        ) : (
          <Text ff="monospace" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        )}
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
            data-testid={`${testId}-copy`}
            onClick={() => clipboard.copy(value)}
          >
            <Icon name="copy" size={16} data-icon="copy" />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

/**
 * SFTP information: host:port, the username OpenSSH accepts (`email#serverId`) with the `email|serverId`
 * form beside it, a ready `sftp` command, an ssh-config block and a connect link (docs/files.md § SFTP).
 */
export function SftpCard({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const self = useQuery(selfQuery);
  // Without the e-mail the user name would read "#id": show the card once the account is known.
  if (!self.data) return null;
  const info = sftpInfo(server, self.data.email, window.location.hostname);
  return (
    <Card withBorder radius="md" padding="md" data-testid="sftp-card">
      <Stack gap="sm">
        <Text fw={600}>{t('servers.sftp.title')}</Text>
        <CopyRow label={t('servers.sftp.host')} value={info.address} testId="sftp-address" />
        <CopyRow label={t('servers.sftp.username')} value={info.username} testId="sftp-username" />
        <CopyRow label={t('servers.sftp.usernameAlt')} value={info.usernameAlt} testId="sftp-username-alt" />
        <Text size="sm" c="dimmed">
          {t('servers.sftp.passwordNote')}
        </Text>
        <CopyRow label={t('servers.sftp.command')} value={info.command} testId="sftp-command" />
        <CopyRow label={t('servers.sftp.sshConfig')} value={info.sshConfig} testId="sftp-ssh-config" block />
        <Anchor href={info.url} data-testid="sftp-connect">
          {t('servers.sftp.connect', { address: info.address })}
        </Anchor>
      </Stack>
    </Card>
  );
}
