import { Alert, Code, Stack, Table, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { FullscreenOverlay } from '../components/FullscreenOverlay';
import { Icon } from '../components/icons';
import { errorDetailsStore } from './errorDetailsStore';

/** The dump behind an 'Unknown error' toast: what was called and what came back, secrets masked. */
export function ErrorDetailsOverlay() {
  const { t } = useTranslation();
  const dump = useSyncExternalStore(errorDetailsStore.subscribe, errorDetailsStore.get);
  const rows: [string, string | number | undefined][] = dump
    ? [
        [t('errorDetails.endpoint'), dump.endpoint],
        [t('errorDetails.method'), dump.method],
        [t('errorDetails.status'), dump.status || t('errorDetails.networkError')],
        [t('errorDetails.authorization'), dump.authorization ?? t('errorDetails.none')],
        [t('errorDetails.response'), dump.response ?? t('errorDetails.none')],
      ]
    : [];
  return (
    <FullscreenOverlay
      opened={dump !== null}
      onClose={errorDetailsStore.close}
      title={t('errorDetails.title')}
    >
      {dump && (
        <Stack data-testid="error-details">
          {dump.noteKey && (
            <Alert color="yellow" icon={<Icon name="alert" />}>
              {t(dump.noteKey)}
            </Alert>
          )}
          <Table withTableBorder variant="vertical">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={180}>{label}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={600}>{t('errorDetails.body')}</Text>
          <Code block>{dump.body || t('errorDetails.none')}</Code>
          <Text fw={600}>{t('errorDetails.stack')}</Text>
          <Code block>{dump.stack || t('errorDetails.none')}</Code>
        </Stack>
      )}
    </FullscreenOverlay>
  );
}
