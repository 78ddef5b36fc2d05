import { ActionIcon, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COPIED_CHIP_MS } from '../../nodes/DeploymentCard';

/** A small label/value pair for the type views; `copy` adds a copy button. */
export function InfoItem({
  label,
  value,
  copy,
  testId,
}: {
  label: string;
  value: string;
  copy?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap">
        {/* Addresses read left to right; names take their own direction. */}
        <Text
          ff={copy ? 'monospace' : undefined}
          size="sm"
          fw={500}
          dir={copy ? 'ltr' : 'auto'}
          data-testid={testId}
        >
          {value}
        </Text>
        {copy && (
          <CopyButton value={value} timeout={COPIED_CHIP_MS}>
            {({ copied, copy: doCopy }) => (
              <Tooltip label={copied ? t('common.copied') : t('common.copy')} opened={copied || undefined}>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color={copied ? 'teal' : 'gray'}
                  onClick={doCopy}
                  aria-label={t('common.copy')}
                >
                  <svg
                    width={14}
                    height={14}
                    viewBox="0 0 24 24"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    aria-hidden="true"
                  >
                    <path d="M8 8h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2zM16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
                  </svg>
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        )}
      </Group>
    </Stack>
  );
}
