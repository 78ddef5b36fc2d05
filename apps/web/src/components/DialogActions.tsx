import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  onCancel: () => void;
  onSave: () => void;
  /** The confirming button's text; Save by default. */
  saveLabel?: string;
  loading?: boolean;
  disabled?: boolean;
  saveTestId?: string;
}

/** The foot of an edit dialog: Cancel, then the confirming button, on the right. */
export function DialogActions({ onCancel, onSave, saveLabel, loading, disabled, saveTestId }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button disabled={disabled} loading={loading} onClick={onSave} data-testid={saveTestId}>
        {saveLabel ?? t('common.save')}
      </Button>
    </Group>
  );
}
