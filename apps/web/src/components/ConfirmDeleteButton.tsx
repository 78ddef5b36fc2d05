import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, type MantineSize } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** Delete dialogs are 600 wide. */
const DIALOG_WIDTH = 600;

interface ConfirmDeleteButtonProps<T> {
  /** The dialog's title, naming what goes. */
  title: string;
  /** The dialog's body: what deleting means. */
  children: ReactNode;
  /** Both the opening and the confirming button say this (default: Delete). */
  label?: string;
  /** The opening button's size (a row of small buttons: `xs`). */
  size?: MantineSize;
  onDelete: () => Promise<T>;
  /** Runs once the delete succeeded, after the dialog closed. */
  onDeleted: (reply: T) => Promise<void> | void;
}

/** A red button that deletes only after a confirmation dialog; failures stay with the mutation's handlers. */
export function ConfirmDeleteButton<T>({
  title,
  children,
  label,
  size,
  onDelete,
  onDeleted,
}: ConfirmDeleteButtonProps<T>) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  const remove = useMutation({
    mutationFn: onDelete,
    onSuccess: async (reply) => {
      dialog.close();
      await onDeleted(reply);
    },
  });
  const text = label ?? t('common.delete');
  return (
    <>
      <Button color="red" variant="light" size={size} onClick={dialog.open}>
        {text}
      </Button>
      <Modal opened={opened} onClose={dialog.close} title={title} centered size={DIALOG_WIDTH}>
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={dialog.close}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {text}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
