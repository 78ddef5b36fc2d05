import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { ApiError, catalogueCodeFor, errorDump } from './errors';
import { errorDetailsStore } from './errorDetailsStore';
import { labelledMetadata } from './field-names';

export const ERROR_DETAIL_TOAST_MS = 6000;

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

function showUnknown(err: ApiError): void {
  const dump = errorDump(err);
  notifications.show({
    color: 'red',
    autoClose: ERROR_DETAIL_TOAST_MS,
    message: (
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{i18next.t('errors.ErrUnknownError')}</Text>
        <Button size="compact-xs" variant="light" color="red" onClick={() => errorDetailsStore.open(dump)}>
          {i18next.t('errorDetails.open')}
        </Button>
      </Group>
    ),
  });
}

/**
 * The one place an error becomes a toast: catalogue text for known codes, 'Unknown error' with a
 * Details button otherwise, nothing for a 401 (the session just ended).
 */
export function notifyError(err: unknown): void {
  if (!(err instanceof ApiError)) {
    notifications.show({ color: 'red', message: i18next.t('errors.ErrUnknownError') });
    return;
  }
  if (err.status === 401) return;
  const code = catalogueCodeFor(err);
  if (!code) {
    showUnknown(err);
    return;
  }
  const values = labelledMetadata(err.metadata, (key) => i18next.t(key));
  notifications.show({ color: 'red', message: i18next.t(`errors.${code}`, { ...values }) });
}
