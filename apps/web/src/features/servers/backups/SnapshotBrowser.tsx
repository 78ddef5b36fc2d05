import type { Backup } from '@hearth/contract/backups';
import { Anchor, Breadcrumbs, Button, Checkbox, Code, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/PageLoader';
import { formatBytes, formatDateTime } from '../../../i18n/format';
import { downloadUrl, treeQuery } from './api';
import type { Can } from './BackupRow';

interface Props {
  serverId: string;
  backup: Backup;
  can: Can;
  onClose: () => void;
  onRestore: (paths: string[]) => void;
}

const parentsOf = (path: string) =>
  path === '' ? [] : path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/** A snapshot's folders, read from the node (`…/tree`); entries chosen here can be restored together. */
export function SnapshotBrowser({ serverId, backup, can, onClose, onRestore }: Props) {
  const { t } = useTranslation();
  const [path, setPath] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const tree = useQuery(treeQuery(serverId, backup.id, path));
  const toggle = (entry: string) =>
    setChosen((now) => (now.includes(entry) ? now.filter((p) => p !== entry) : [...now, entry]));
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('servers.backups.browseTitle', { when: formatDateTime(backup.time) })}
    >
      <Stack data-testid="backup-browser">
        <Breadcrumbs>
          <Anchor onClick={() => setPath('')}>{t('servers.backups.root')}</Anchor>
          {parentsOf(path).map((p) => (
            <Anchor key={p} onClick={() => setPath(p)}>
              {p.split('/').pop()}
            </Anchor>
          ))}
        </Breadcrumbs>
        {!tree.data ? (
          <PageLoader />
        ) : (
          <Table>
            <Table.Tbody>
              {tree.data.entries.map((entry) => (
                <Table.Tr key={entry.path} data-testid={`backup-entry-${entry.name}`}>
                  <Table.Td>
                    {can('restoreServerBackups') && (
                      <Checkbox
                        aria-label={t('servers.backups.choose', { name: entry.name })}
                        checked={chosen.includes(entry.path)}
                        onChange={() => toggle(entry.path)}
                      />
                    )}
                  </Table.Td>
                  <Table.Td>
                    {entry.type === 'dir' ? (
                      <Anchor onClick={() => setPath(entry.path)}>{entry.name}/</Anchor>
                    ) : (
                      <Text>{entry.name}</Text>
                    )}
                  </Table.Td>
                  <Table.Td>{entry.type === 'file' ? formatBytes(entry.size) : ''}</Table.Td>
                  <Table.Td>
                    {can('downloadServerBackups') && (
                      <Anchor
                        size="sm"
                        href={downloadUrl(serverId, backup.id, entry.path, 'tar.gz')}
                        download
                        data-testid="backup-entry-download"
                      >
                        <Code>.tar.gz</Code>
                      </Anchor>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {can('restoreServerBackups') && (
          <Group justify="flex-end">
            <Button
              disabled={chosen.length === 0}
              onClick={() => onRestore(chosen)}
              data-testid="backup-restore-chosen"
            >
              {t('servers.backups.restoreChosen')}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
