import { NumberInput, Select, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  VARIABLE_INTEGER_LIMIT,
  VARIABLE_STRING_MAX_LENGTH,
  type Variable,
  type VariableEffect,
} from '@hearth/contract';
import type { VariableValue } from './values';

interface Props {
  name: string;
  variable: Variable;
  value: VariableValue;
  onChange: (value: VariableValue) => void;
  /** An i18n key. */
  error?: string | null;
  disabled?: boolean;
  /** When a change takes effect (from the definition, contract variable-effects.ts); strongest first. */
  effects?: VariableEffect[];
}

/** One typed input per variable: boolean → switch, option → select, integer → number, else text. */
export function VariableInput({ name, variable, value, onChange, error, disabled, effects = [] }: Props) {
  const { t } = useTranslation();
  const label = variable.display || name;
  const effect = effects[0];
  const note = effect && (
    <Text span size="xs" c="orange" display="block" data-testid={`variable-effect-${name}`}>
      {t(effect === 'reinstall' ? 'servers.settings.effectReinstall' : 'servers.settings.effectRestart')}
    </Text>
  );
  const common = {
    label: <span dir="auto">{label}</span>,
    description:
      variable.desc || note ? (
        <>
          {variable.desc && <span dir="auto">{variable.desc}</span>}
          {note}
        </>
      ) : undefined,
    error: error
      ? t(error, {
          min: variable.min ?? -VARIABLE_INTEGER_LIMIT,
          max: variable.max ?? VARIABLE_INTEGER_LIMIT,
          length: VARIABLE_STRING_MAX_LENGTH,
        })
      : undefined,
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
          // Not clamped on blur: 99999999 in a port field is shown as an error, never saved as 65535 unseen.
          clampBehavior="none"
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
