import { Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogActions } from '../../../components/DialogActions';

interface Props {
  title: string;
  onClose: () => void;
  onSave: () => void;
  children: ReactNode;
}

/** The dialog that edits one entry of a template list (variable, processor, environment): fields, Cancel, Save. */
export function EntryOverlay({ title, onClose, onSave, children }: Props) {
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <Stack>
        {children}
        <DialogActions onCancel={onClose} onSave={onSave} />
      </Stack>
    </Modal>
  );
}
