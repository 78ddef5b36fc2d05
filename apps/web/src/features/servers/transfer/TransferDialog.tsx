import type { NodeChoice } from '@hearth/contract/nodes';
import { Alert, Badge, Button, Group, List, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icons';
import { finished } from './model';
import { TransferStatus } from './TransferStatus';
import type { TransferView } from './useTransfer';

interface Props {
  opened: boolean;
  onClose: () => void;
  serverName: string;
  currentNode: string;
  /** Every node but the server's own; null while loading. */
  targets: NodeChoice[] | null;
  nodeName: (id: string) => string;
  view: TransferView | null;
  starting: boolean;
  onConfirm: (node: string) => void;
}

/** The target nodes as radio cards; an offline node cannot receive a server, so it is shown but disabled. */
function TargetPicker({
  targets,
  value,
  onChange,
}: {
  targets: NodeChoice[];
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (targets.length === 0) return <Text size="sm">{t('servers.transfer.noTargets')}</Text>;
  return (
    <Radio.Group
      value={value}
      onChange={onChange}
      label={t('servers.transfer.target')}
      data-testid="transfer-targets"
    >
      <Stack gap="xs" mt="xs">
        {targets.map((node) => (
          <Group key={node.id} justify="space-between" wrap="nowrap">
            <Radio value={node.id} label={node.name} disabled={node.status === 'offline'} />
            <Badge
              variant="light"
              color={node.status === 'online' ? 'green' : node.status === 'offline' ? 'red' : 'gray'}
            >
              {t(`nodes.status.${node.status}`)}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** What a move does to the server, said before it starts (docs/web.md § Moving a server). */
function Consequences() {
  const { t } = useTranslation();
  return (
    <Alert color="orange" icon={<Icon name="alert" />} data-testid="transfer-explain">
      <List size="sm" spacing={4}>
        <List.Item>{t('servers.transfer.explainStop')}</List.Item>
        <List.Item>{t('servers.transfer.explainSftp')}</List.Item>
        <List.Item>{t('servers.transfer.explainDocker')}</List.Item>
      </List>
    </Alert>
  );
}

/** Pick a target, read what happens, confirm; then the progress and the outcome in the same dialog. */
export function TransferDialog(props: Props) {
  const { t } = useTranslation();
  const { view, targets, nodeName } = props;
  const [target, setTarget] = useState('');
  const choosing = view === null;
  const selectable = (targets ?? []).some((n) => n.id === target && n.status !== 'offline');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('servers.transfer.dialogTitle', { name: props.serverName })}
      size="lg"
      centered
    >
      <Stack data-testid="transfer-dialog">
        {choosing ? (
          <>
            <Text size="sm">{t('servers.transfer.current', { node: nodeName(props.currentNode) })}</Text>
            {targets && <TargetPicker targets={targets} value={target} onChange={setTarget} />}
            <Consequences />
          </>
        ) : (
          <TransferStatus view={view} nodeName={nodeName} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {choosing ? t('common.cancel') : t('common.close')}
          </Button>
          {choosing && (
            <Button
              color="orange"
              disabled={!selectable}
              loading={props.starting}
              onClick={() => props.onConfirm(target)}
            >
              {t('servers.transfer.confirm')}
            </Button>
          )}
          {view && !finished(view.phase) && (
            <Text size="xs" c="dimmed">
              {t('servers.transfer.closeHint')}
            </Text>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
