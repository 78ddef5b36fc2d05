import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ServersPage } from '@hearth/contract/servers';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';

const EVERY = '*';
const LIMIT = 100;

interface Props {
  /** '' for every server. */
  value: string;
  onChange: (serverId: string) => void;
  error?: string;
}

/** The scope of an administrator's rule: every server, or one found by name (docs/alerts.md § Rules). */
export function ServerPicker({ value, onChange, error }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const servers = useQuery({
    queryKey: ['alerts', 'servers', q],
    queryFn: () =>
      api.get<ServersPage>(`/api/servers?page=1&limit=${LIMIT}${q ? `&q=${encodeURIComponent(q)}` : ''}`),
  });
  const options = (servers.data?.servers ?? []).map((s) => ({ value: s.id, label: s.name }));
  // The chosen server stays selectable while a search hides it.
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  const data = [{ value: EVERY, label: t('alerts.everyServer') }, ...options];
  return (
    <Select
      label={t('alerts.fields.scope')}
      searchable
      allowDeselect={false}
      data={data}
      value={value || EVERY}
      onChange={(next) => onChange(next === null || next === EVERY ? '' : next)}
      // Picking an option puts its label in the box: that is no search.
      onSearchChange={(text) => setSearch(data.some((o) => o.label === text) ? '' : text)}
      nothingFoundMessage={t('alerts.noServerFound')}
      error={error}
      data-testid="alert-scope"
    />
  );
}
