import { ActionIcon, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Icon } from './icons';

/** The frame of a list editor: its label (when it has one) over the rows and the add control. */
export function ListEditorFrame({
  label,
  testId,
  children,
}: {
  label?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Stack gap={6} data-testid={testId}>
      {label && (
        <Text size="sm" fw={500}>
          {label}
        </Text>
      )}
      {children}
    </Stack>
  );
}

/** The red trash button at the end of a row that removes it. */
export function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
      <Icon name="trash" />
    </ActionIcon>
  );
}
