import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import type { NodeDeployment, NodeView } from '@hearth/contract/nodes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { deploymentQuery, nodeKeys } from './api';
import { RotateCredentialButton } from './RotateCredentialButton';

/** The copy confirmation chip stays 6000 ms. */
export const COPIED_CHIP_MS = 6000;

function CopyBlock({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value} timeout={COPIED_CHIP_MS}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
            >
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      {/* Focusable: a block that scrolls must be scrollable from the keyboard too. */}
      <Code
        block
        tabIndex={0}
        data-testid={testId}
        style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre' }}
      >
        {value}
      </Code>
    </Stack>
  );
}

/** The panel address the node dials, as its configuration says. */
function panelUrlOf(deployment: NodeDeployment | undefined): string {
  const url = deployment?.config.panelUrl;
  return typeof url === 'string' ? url : '';
}

/** What an outbound node needs (outbound HTTPS to the panel, nothing open) and where its users' SFTP goes. */
function OutboundNotes({ node, panelUrl }: { node: NodeView; panelUrl: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" icon={<Icon name="nodes" />} data-testid="deployment-outbound">
      <Stack gap={4}>
        <Text size="sm">{t('nodes.deploy.outbound', { url: panelUrl })}</Text>
        <Text size="sm" data-testid="deployment-outbound-sftp">
          {t('nodes.deploy.outboundSftp', { host: node.publicHost, port: node.sftpPort })}
        </Text>
      </Stack>
    </Alert>
  );
}

/**
 * A deployment handed over by the add page or a rotation: the page says it was just issued (the daemon running
 * with the previous one must get it). Taken from the cache on mount and dropped from it.
 */
function useIssued(nodeId: string) {
  const queryClient = useQueryClient();
  const [issued, setIssued] = useState(() =>
    queryClient.getQueryData<NodeDeployment>(nodeKeys.issued(nodeId)),
  );
  useEffect(() => {
    queryClient.removeQueries({ queryKey: nodeKeys.issued(nodeId) });
  }, [queryClient, nodeId]);
  return [issued, setIssued] as const;
}

/**
 * The deployment instructions: the daemon's complete config file (node credential and, for a pinned node, its
 * TLS certificate and key — the panel keeps them sealed, so they are shown again to deployers) and the panel's
 * public key. Reading them changes nothing.
 */
export function DeploymentCard({
  nodeId,
  isLocal = false,
  node,
}: {
  nodeId: string;
  isLocal?: boolean;
  /** The saved node: its link mode decides what the node's machine needs (no open port when it dials out). */
  node?: NodeView;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const deployment = useQuery(deploymentQuery(nodeId));
  const [issued, setIssued] = useIssued(nodeId);
  const shown = issued ?? deployment.data;
  const onRotated = (next: NodeDeployment) => {
    setIssued(next);
    queryClient.setQueryData(nodeKeys.deployment(nodeId), next);
    void queryClient.invalidateQueries({ queryKey: nodeKeys.all });
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="deployment-card">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('nodes.deploy.title')}</Title>
          <RotateCredentialButton nodeId={nodeId} onRotated={onRotated} />
        </Group>
        <Text size="sm" c="dimmed">
          {t(node?.link === 'outbound' ? 'nodes.deploy.descriptionOutbound' : 'nodes.deploy.description')}
        </Text>
        {node?.link === 'outbound' && <OutboundNotes node={node} panelUrl={panelUrlOf(shown)} />}
        {issued && (
          <Alert color="yellow" icon={<Icon name="alert" />} data-testid="deployment-issued">
            {t('nodes.deploy.issued')}
          </Alert>
        )}
        {/* The local node's secret is handed over in-process at each `hearth start`, never stored. */}
        {shown && shown.clientSecret === undefined && !isLocal && (
          <Alert color="yellow" icon={<Icon name="alert" />} data-testid="deployment-missing-secret">
            {t('nodes.deploy.missingSecret')}
          </Alert>
        )}
        {shown?.installSteps && (
          <CopyBlock
            label={t('nodes.deploy.oneStep')}
            value={shown.installSteps.join('\n')}
            testId="deployment-install"
          />
        )}
        {shown && (
          <>
            <Text size="sm">{t('nodes.deploy.steps')}</Text>
            <Code>hearth daemon --config node.json</Code>
            {shown.tlsFingerprint && (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {t('nodes.tls.fingerprint')}
                </Text>
                <Code data-testid="deployment-fingerprint" style={{ wordBreak: 'break-all' }}>
                  {shown.tlsFingerprint}
                </Code>
                <Text size="xs" c="dimmed">
                  {t('nodes.tls.fingerprintHint')}
                </Text>
              </Stack>
            )}
            <CopyBlock
              label={t('nodes.deploy.config')}
              value={JSON.stringify(shown.config, null, 2)}
              testId="deployment-config"
            />
            <CopyBlock label={t('nodes.deploy.publicKey')} value={shown.publicKey} testId="deployment-key" />
          </>
        )}
      </Stack>
    </Card>
  );
}
