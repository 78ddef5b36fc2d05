import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { NodeLinkState } from '@hearth/contract/nodes';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/format';

/** Connected (green) or waiting for the node to dial in (yellow; red once the link reported an error). */
export function LinkStateBadge({ state }: { state: NodeLinkState }) {
  const { t } = useTranslation();
  const color = state.connected ? 'green' : state.lastError ? 'red' : 'yellow';
  return (
    <Badge
      color={color}
      variant="light"
      data-testid="node-link-badge"
      data-connected={String(state.connected)}
    >
      {t(state.connected ? 'nodes.link.connected' : 'nodes.link.waiting')}
    </Badge>
  );
}

/** What the SFTP relay on the panel does for this node (nodes-link/sftp-relay.ts). */
function RelayLine({ relay }: { relay: NodeLinkState['sftpRelay'] }) {
  const { t } = useTranslation();
  if (relay.error) {
    return (
      <Text size="sm" c="red" data-testid="node-link-relay">
        {t('nodes.link.sftpRelayError', { port: relay.port, error: relay.error })}
      </Text>
    );
  }
  const key = relay.listening ? 'nodes.link.sftpRelayed' : 'nodes.link.sftpRelayStopped';
  return (
    <Text size="sm" data-testid="node-link-relay">
      {t(key, { port: relay.port })}
    </Text>
  );
}

/**
 * The live state of a node that dials the panel: since when and from where it is connected, or that the
 * panel waits for it, its last link error, and the SFTP relay's port. The Node page refetches it every few
 * seconds while open.
 */
export function LinkStateCard({ state }: { state: NodeLinkState }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="node-link-state">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>{t('nodes.link.title')}</Title>
          <LinkStateBadge state={state} />
        </Group>
        {state.connected ? (
          <Text size="sm" data-testid="node-link-text">
            {state.since === null
              ? t('nodes.link.connected')
              : t('nodes.link.connectedSince', { when: formatDateTime(state.since) })}
            {state.remoteAddress && ` · ${t('nodes.link.from', { address: state.remoteAddress })}`}
          </Text>
        ) : (
          <Text size="sm" data-testid="node-link-text">
            {t('nodes.link.waitingText')}
          </Text>
        )}
        {state.lastError && (
          <Text size="sm" c="red" data-testid="node-link-error">
            {t('nodes.link.lastError', { error: state.lastError })}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('nodes.link.connects', { n: state.connects })}
        </Text>
        <RelayLine relay={state.sftpRelay} />
      </Stack>
    </Card>
  );
}
