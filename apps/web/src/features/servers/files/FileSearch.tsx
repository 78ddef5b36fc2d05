/**
 * Search by name below the current folder (docs/files.md § Search): the daemon's bounded search, results as a
 * list of paths; a folder opens itself, a file opens in its folder (and in the editor or preview).
 */
import {
  ActionIcon,
  CloseButton,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import type { FileSearchHit, FileSearchResult } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../api/notify';
import { Icon } from '../../../components/icons';
import { filesApi } from './api';

export function FileSearch(props: {
  serverId: string;
  folder: string;
  onOpen: (hit: FileSearchHit) => void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<FileSearchResult | null>(null);
  const search = async () => {
    if (query.trim() === '') return setResult(null);
    setBusy(true);
    try {
      setResult(await filesApi.search(props.serverId, props.folder, query.trim()));
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  const clear = () => {
    setQuery('');
    setResult(null);
  };
  return (
    <Stack gap={4} data-testid="file-search">
      <TextInput
        size="xs"
        placeholder={t('servers.files.searchPlaceholder')}
        aria-label={t('servers.files.searchPlaceholder')}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void search();
          if (e.key === 'Escape') clear();
          e.stopPropagation(); // the list's keyboard shortcuts stay out of the search box
        }}
        leftSection={busy ? <Loader size={14} /> : <Icon name="search" size={16} />}
        rightSection={
          query || result ? (
            <CloseButton size="sm" aria-label={t('servers.files.closeSearch')} onClick={clear} />
          ) : (
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t('servers.files.search')}
              onClick={() => void search()}
            >
              <Icon name="chevronRight" size={14} />
            </ActionIcon>
          )
        }
        data-testid="file-search-input"
      />
      {result && (
        <Stack gap={0} data-testid="file-search-results" data-count={result.results.length}>
          {(result.results.length === 0 || result.truncated) && (
            <Text size="xs" c="dimmed" data-testid="file-search-note">
              {result.results.length === 0
                ? t('servers.files.searchNone')
                : t('servers.files.searchTruncated')}
            </Text>
          )}
          {result.results.map((hit) => (
            <UnstyledButton
              key={hit.path}
              onClick={() => {
                clear();
                props.onOpen(hit);
              }}
              py={6}
              px="xs"
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              data-testid="file-search-hit"
              data-path={hit.path}
            >
              <Group gap="xs" wrap="nowrap">
                <Icon name={hit.isFile ? 'file' : 'folder'} size={16} />
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {hit.path}
                </Text>
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
