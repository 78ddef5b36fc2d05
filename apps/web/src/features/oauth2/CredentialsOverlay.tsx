import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import type { OauthClientCreated } from '@hearth/contract/accounts';

function Secret({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Group wrap="nowrap" gap="xs">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** Shown once after creation: the secret cannot be read again. */
export function CredentialsOverlay({
  client,
  onClose,
}: {
  client: OauthClientCreated | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={client !== null}
      onClose={onClose}
      title={t('oauth2.credentials.title')}
      centered
      size="lg"
    >
      {client && (
        <Stack>
          <Alert color="yellow" icon={<Icon name="alert" />}>
            {t('oauth2.credentials.warning')}
          </Alert>
          <Secret label={t('oauth2.credentials.clientId')} value={client.id} testId="client-id" />
          <Secret label={t('oauth2.credentials.clientSecret')} value={client.secret} testId="client-secret" />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
