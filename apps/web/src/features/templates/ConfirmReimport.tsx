import { Modal, Stack, Text } from '@mantine/core';
import type { ImportableTemplate } from '@hearth/contract/templates-api';
import { useTranslation } from 'react-i18next';
import { DialogActions } from '../../components/DialogActions';

interface Props {
  row: ImportableTemplate | null;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an import replaces a stored template, and says when edits made since its import are lost. */
export function ConfirmReimport({ row, loading, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={row !== null}
      onClose={onCancel}
      title={t('templates.import.confirmTitle', { name: row?.name ?? '' })}
      data-testid="confirm-reimport"
    >
      <Stack>
        <Text size="sm">
          {t('templates.import.confirmText', { name: row?.name ?? '', source: row?.source ?? '' })}
        </Text>
        {row?.imported?.editedSince && (
          <Text size="sm" fw={500} data-testid="confirm-reimport-edited">
            {t('templates.import.confirmEdited')}
          </Text>
        )}
        <DialogActions
          onCancel={onCancel}
          onSave={onConfirm}
          loading={loading}
          saveLabel={t('templates.import.confirmButton')}
        />
      </Stack>
    </Modal>
  );
}
