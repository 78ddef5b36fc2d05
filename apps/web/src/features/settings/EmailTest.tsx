import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, catalogueCodeFor } from '../../api/errors';
import { labelledMetadata } from '../../api/field-names';
import { notifyError } from '../../api/notify';
import { sendTestEmail } from './api';

/**
 * "Send test e-mail" (issue 16 item 19): a test mail to the administrator's own address with the saved settings,
 * and what happened, shown under the button (sent to whom, or the provider's refusal).
 */
export function EmailTest({ unsaved }: { unsaved: boolean }) {
  const { t } = useTranslation();
  const test = useMutation({
    mutationFn: sendTestEmail,
    meta: { silent: true },
    // A catalogued refusal is shown under the button; anything else gets the usual toast with Details.
    onError: (err) => {
      if (!(err instanceof ApiError && catalogueCodeFor(err))) notifyError(err);
    },
  });
  const failure = test.error instanceof ApiError ? test.error : undefined;
  const code = failure && catalogueCodeFor(failure);
  return (
    <Stack gap="xs" data-testid="email-test">
      <Group gap="sm" wrap="wrap">
        <Button
          variant="light"
          onClick={() => test.mutate()}
          loading={test.isPending}
          disabled={unsaved}
          data-testid="email-test-send"
        >
          {t('settings.email.test.button')}
        </Button>
        <Text size="xs" c="dimmed">
          {t(unsaved ? 'settings.email.test.saveFirst' : 'settings.email.test.hint')}
        </Text>
      </Group>
      {test.isSuccess && (
        <Alert color="green" data-testid="email-test-result" data-ok="true">
          {t('settings.email.test.sent', { to: test.data.to })}
        </Alert>
      )}
      {failure && code && (
        <Alert color="red" data-testid="email-test-result" data-ok="false">
          {t(`errors.${code}`, { ...labelledMetadata(failure.metadata, (key) => t(key)) })}
        </Alert>
      )}
    </Stack>
  );
}
