import type { ServerView } from '@hearth/contract/servers';
import { Button, Card, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nodeChoicesQuery } from '../../nodes/api';
import { CardHeading } from '../admin/CardHeading';
import type { ServerLive } from '../useServerLive';
import { finished } from './model';
import { TransferDialog } from './TransferDialog';
import { TransferStatus } from './TransferStatus';
import { useTransfer } from './useTransfer';

/**
 * The Admin tab's "Move to another node" card (admins only; docs/web.md § Moving a server). A move running when
 * the page opens is shown in the dialog straight away; closed, the card keeps showing its progress.
 */
export function TransferCard({ server, live }: { server: ServerView; live: ServerLive }) {
  const { t } = useTranslation();
  const transfer = useTransfer(server.id, server.node.id, live);
  const [opened, setOpened] = useState(false);
  const choices = useQuery({ ...nodeChoicesQuery, enabled: opened });
  const names = new Map((choices.data ?? []).map((n) => [n.id, n.name]));
  names.set(server.node.id, server.node.name);
  const nodeName = (id: string) => names.get(id) ?? id;
  const targets = choices.data ? choices.data.filter((n) => n.id !== server.node.id) : null;
  const { view, reset } = transfer;
  const running = view !== null && !finished(view.phase);

  // A move picked up from the panel (after a reload, or started elsewhere) opens the dialog once.
  const [pickedUp, setPickedUp] = useState(false);
  useEffect(() => {
    if (!running || pickedUp) return;
    setPickedUp(true);
    setOpened(true);
  }, [running, pickedUp]);

  const open = () => {
    if (view && finished(view.phase)) reset();
    setOpened(true);
  };
  const close = () => {
    setOpened(false);
    if (view && finished(view.phase)) reset();
  };
  return (
    <Card withBorder radius="md" padding="lg" data-testid="transfer-card">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <CardHeading title={t('servers.transfer.title')} hint={t('servers.transfer.hint')} gap={2} />
          <Button variant="default" onClick={open} data-testid="transfer-open">
            {running ? t('servers.transfer.show') : t('servers.transfer.title')}
          </Button>
        </Group>
        {!opened && view && <TransferStatus view={view} nodeName={nodeName} />}
      </Stack>
      <TransferDialog
        opened={opened}
        onClose={close}
        serverName={server.name}
        currentNode={server.node.id}
        targets={targets}
        nodeName={nodeName}
        view={view}
        starting={transfer.starting}
        onConfirm={transfer.start}
      />
    </Card>
  );
}
