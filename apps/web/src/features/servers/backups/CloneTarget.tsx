import type { ServersPage } from '@hearth/contract/servers';
import { Select } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { serverKeys } from '../api';

interface Props {
  serverId: string;
  nodeId: string;
  /** '' = this server, NEW_SERVER = a new server (RestoreDialog asks its name). */
  value: string;
  onChange: (serverId: string) => void;
}

/** The choice "a new server": the panel makes it from this server's definition, then restores into it. */
export const NEW_SERVER = ':new'; // never a server id (serverIdSchema)

/** The largest page GET /api/servers gives (serversQuerySchema); the search narrows a larger panel. */
const LIMIT = 100;

/**
 * Where an administrator restores a backup (docs/backups.md § Clone): this server, a new server (made with this
 * server's template, variables and environment, `POST /api/servers/{id}/backup/{backupId}/clone`), or another
 * server of the same node — the daemon restores only into a stopped server it holds (ErrRestoreServerRunning otherwise). The
 * choices come from the panel's server list (admins see every server), searched by name.
 */
export function CloneTarget({ serverId, nodeId, value, onChange }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const servers = useQuery({
    queryKey: [...serverKeys.all, 'clone-targets', nodeId, search],
    queryFn: () =>
      api.get<ServersPage>(`/api/servers?page=1&limit=${LIMIT}&q=${encodeURIComponent(search.trim())}`),
    placeholderData: keepPreviousData,
  });
  const others = (servers.data?.servers ?? []).filter((s) => s.node.id === nodeId && s.id !== serverId);
  const data = [
    { value: '', label: t('servers.backups.cloneThisServer') },
    { value: NEW_SERVER, label: t('servers.backups.cloneNewServer') },
    ...others.map((s) => ({ value: s.id, label: `${s.name} (${s.id})` })),
  ];
  return (
    <Select
      label={t('servers.backups.cloneTarget')}
      description={t('servers.backups.cloneHint')}
      data={data}
      value={value}
      allowDeselect={false}
      searchable
      onSearchChange={(text) => setSearch(data.some((d) => d.label === text) ? '' : text)}
      onChange={(v) => onChange(v ?? '')}
      nothingFoundMessage={t('servers.backups.cloneNone')}
      data-testid="backup-clone-into"
    />
  );
}
