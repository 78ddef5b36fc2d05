import { isErrorCode, type ErrorMetadata } from '@hearth/contract';
import type { TransferError } from '@hearth/contract/transfer';
import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { labelledMetadata } from '../../../api/field-names';
import { Icon } from '../../../components/icons';
import { useFormat } from '../../../i18n/format';
import type { TransferView } from './useTransfer';

/** A failed move's reason through the error catalogue (docs/errors.md); a node by its name. */
function useErrorText(nodeName: (id: string) => string) {
  const { t } = useTranslation();
  return (error: TransferError | null) => {
    if (!error || !isErrorCode(error.code)) return t('errors.ErrUnknownError');
    const metadata = labelledMetadata((error.metadata ?? {}) as ErrorMetadata, (key) => t(key));
    if (typeof metadata.node === 'string') metadata.node = nodeName(metadata.node);
    return t(`errors.${error.code}`, { ...metadata });
  };
}

/** Where the move is (phase, bytes of total), then where the server ended up. */
export function TransferStatus({ view, nodeName }: { view: TransferView; nodeName: (id: string) => string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useErrorText(nodeName);
  if (view.phase === 'done')
    return (
      <Stack gap="xs" data-testid="transfer-result" data-outcome="done">
        <Alert color="green" icon={<Icon name="move" />}>
          {t('servers.transfer.success', { node: nodeName(view.to) })}
        </Alert>
        {view.leftover && (
          <Alert color="yellow" icon={<Icon name="alert" />}>
            {t('servers.transfer.leftover', { node: nodeName(view.from), path: view.leftover })}
          </Alert>
        )}
      </Stack>
    );
  if (view.phase === 'failed')
    return (
      <Alert color="red" icon={<Icon name="alert" />} data-testid="transfer-result" data-outcome="failed">
        <Stack gap={4}>
          <Text size="sm" data-testid="transfer-error">
            {errorText(view.error)}
          </Text>
          <Text size="sm">{t('servers.transfer.stayed', { node: nodeName(view.from) })}</Text>
        </Stack>
      </Alert>
    );
  const fraction = view.total > 0 ? Math.min(1, view.bytes / view.total) : 0;
  return (
    <Stack gap="xs" data-testid="transfer-progress" data-phase={view.phase}>
      <Text size="sm" fw={500}>
        {t(`servers.transfer.phase.${view.phase}`)}
      </Text>
      <Progress value={fraction * 100} animated aria-label={t('servers.transfer.title')} />
      {view.total > 0 ? (
        <Text size="sm" c="dimmed" data-testid="transfer-bytes">
          {t('servers.transfer.bytes', { done: format.bytes(view.bytes), total: format.bytes(view.total) })}
        </Text>
      ) : (
        // The size is known once the source node starts the export; before that (stopping) there is nothing to say.
        view.phase === 'preparing' && (
          <Text size="sm" c="dimmed">
            {t('servers.transfer.sizing')}
          </Text>
        )
      )}
    </Stack>
  );
}
