import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import type { NodeDeployment } from '@hearth/contract/nodes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { deploymentQuery, nodeKeys } from './api';
import { RotateCredentialButton } from './RotateCredentialButton';

/** SPEC §9: the copy confirmation chip stays 6000 ms. */
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
      <Code block data-testid={testId} style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre' }}>
        {value}
      </Code>
    </Stack>
  );
}

/**
 * A secret handed over by the add page (POST /api/nodes answers it once): taken from the cache on mount and
 * dropped from it, so it is shown on this visit only.
 */
function useIssuedSecret(nodeId: string) {
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
 * The deployment instructions: the daemon's config file and the panel's public key. Reading them changes
 * nothing; the node secret exists only in the answers that issue one (creation, rotation), shown once.
 */
export function DeploymentCard({ nodeId }: { nodeId: string }) {
  const { t } = useTranslation();
  const deployment = useQuery(deploymentQuery(nodeId));
  const [issued, setIssued] = useIssuedSecret(nodeId);
  const shown = issued ?? deployment.data;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="deployment-card">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('nodes.deploy.title')}</Title>
          <RotateCredentialButton nodeId={nodeId} onRotated={setIssued} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('nodes.deploy.description')}
        </Text>
        {issued ? (
          <Alert color="yellow" icon={<Icon name="alert" />} data-testid="deployment-secret-once">
            {t('nodes.deploy.secretOnce')}
          </Alert>
        ) : (
          <Text size="sm" c="dimmed">
            {t('nodes.deploy.noSecret')}
          </Text>
        )}
        {shown && (
          <>
            <Text size="sm">{t('nodes.deploy.steps')}</Text>
            <Code>hearth daemon --config node.json</Code>
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
