import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoveRowButton } from '../../../components/ListEditorParts';

export interface ListCardProps<T> {
  title: string;
  items: readonly T[];
  emptyText: string;
  addLabel: string;
  addDisabled?: boolean;
  testId: string;
  describe: (item: T) => ReactNode;
  onAdd: () => void;
  onOpen: (index: number) => void;
  onRemove: (index: number) => void;
  children?: ReactNode;
}

/** A card listing entries (variables, steps, environments): click one to edit, trash to remove, add below. */
export function ListCard<T>(props: ListCardProps<T>) {
  const { t } = useTranslation();
  const { title, items, emptyText, addLabel, addDisabled, testId, describe } = props;
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Stack gap="xs">
        <Title order={4}>{title}</Title>
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            {emptyText}
          </Text>
        )}
        {items.map((item, i) => (
          <Group key={i} justify="space-between" wrap="nowrap" data-testid={`${testId}-item`}>
            <Button variant="subtle" justify="flex-start" style={{ flex: 1 }} onClick={() => props.onOpen(i)}>
              {describe(item)}
            </Button>
            <RemoveRowButton label={t('templates.widgets.remove')} onClick={() => props.onRemove(i)} />
          </Group>
        ))}
        {props.children}
        <Group>
          <Button variant="light" size="xs" onClick={props.onAdd} disabled={addDisabled}>
            {addLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
