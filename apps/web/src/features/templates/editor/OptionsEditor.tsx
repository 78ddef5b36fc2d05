import { Button, Group } from '@mantine/core';
import type { Variable } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/TextField';
import { valueText } from '../model/variables';
import { ListEditorFrame, RemoveRowButton } from '../../../components/ListEditorParts';

type Option = NonNullable<Variable['options']>[number];

/** The value/display pairs of an `option` variable; a value edited here becomes text. */
export function OptionsEditor({ options, onChange }: { options: Option[]; onChange: (o: Option[]) => void }) {
  const { t } = useTranslation();
  const patch = (i: number, next: Partial<Option>) =>
    onChange(options.map((o, j) => (j === i ? { ...o, ...next } : o)));
  return (
    <ListEditorFrame label={t('templates.variables.options')} testId="variable-options">
      {options.map((option, i) => (
        <Group key={i} gap={6} wrap="nowrap">
          <TextField
            style={{ flex: 1 }}
            aria-label={`${t('templates.variables.optionValue')} ${i + 1}`}
            placeholder={t('templates.variables.optionValue')}
            value={valueText(option.value)}
            onChange={(value) => patch(i, { value })}
          />
          <TextField
            style={{ flex: 1 }}
            aria-label={`${t('templates.variables.optionDisplay')} ${i + 1}`}
            placeholder={t('templates.variables.optionDisplay')}
            value={option.display}
            onChange={(display) => patch(i, { display })}
          />
          <RemoveRowButton
            label={t('templates.widgets.remove')}
            onClick={() => onChange(options.filter((_o, j) => j !== i))}
          />
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...options, { value: '', display: '' }])}>
          {t('templates.variables.addOption')}
        </Button>
      </Group>
    </ListEditorFrame>
  );
}
