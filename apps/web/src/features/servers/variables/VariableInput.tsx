import { NumberInput, Select, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Variable } from '@hearth/contract';
import type { VariableValue } from './values';

interface Props {
  name: string;
  variable: Variable;
  value: VariableValue;
  onChange: (value: VariableValue) => void;
  /** An i18n key. */
  error?: string | null;
  disabled?: boolean;
}

/** One typed input per variable: boolean → switch, option → select, integer → number, else text. */
export function VariableInput({ name, variable, value, onChange, error, disabled }: Props) {
  const { t } = useTranslation();
  const label = variable.display || name;
  const common = {
    label,
    description: variable.desc || undefined,
    error: error ? t(error) : undefined,
    disabled,
    'data-variable': name,
  };
  switch (variable.type) {
    case 'boolean':
      return (
        <Switch
          {...common}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          pt="xs"
        />
      );
    case 'option':
      return (
        <Select
          {...common}
          required={variable.required !== false}
          allowDeselect={false}
          data={(variable.options ?? []).map((o) => ({
            value: String(o.value),
            label: o.display || String(o.value),
          }))}
          value={value === '' ? null : String(value)}
          onChange={(next) => onChange(next ?? '')}
        />
      );
    case 'integer':
      return (
        <NumberInput
          {...common}
          required={variable.required !== false}
          allowDecimal={false}
          min={variable.min}
          max={variable.max}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(next === '' ? '' : Number(next))}
        />
      );
    case 'string':
      return (
        <TextInput
          {...common}
          required={variable.required !== false}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}
