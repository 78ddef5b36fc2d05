import { NumberInput, Textarea } from '@mantine/core';
import { variableTypes, type Variable, type VariableType } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/SelectField';
import { SwitchInput } from '../../../components/SwitchInput';
import { TextField } from '../../../components/TextField';
import { changeVariableType, valueText, variableNameError } from '../model/variables';
import { OptionsEditor } from './OptionsEditor';
import type { NamedVariable } from './VariablesCard';
import { EntryOverlay } from './EntryOverlay';

interface Props {
  entry: NamedVariable;
  takenNames: readonly string[];
  onSave: (entry: NamedVariable) => void;
  onClose: () => void;
}

/** Edits one variable; the name rule blocks saving with its message. */
export function VariableOverlay({ entry, takenNames, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(entry.name);
  const [variable, setVariable] = useState<Variable>(entry.variable);
  const [nameError, setNameError] = useState<string | null>(null);
  const set = (patch: Partial<Variable>) => setVariable({ ...variable, ...patch });
  const save = () => {
    const rule = variableNameError(name);
    if (rule) return setNameError(t(rule));
    if (takenNames.includes(name)) return setNameError(t('templates.variables.duplicate'));
    onSave({ name, variable });
  };
  const types = variableTypes.map((type) => ({ value: type, label: t(`templates.variables.types.${type}`) }));
  return (
    <EntryOverlay title={t('templates.variables.edit')} onClose={onClose} onSave={save}>
      <TextField
        label={t('templates.variables.name')}
        value={name}
        error={nameError}
        onChange={(next) => {
          setName(next);
          setNameError(null);
        }}
      />
      <TextField
        label={t('templates.variables.display')}
        value={variable.display}
        onChange={(display) => set({ display })}
      />
      <Textarea
        label={t('templates.variables.desc')}
        value={variable.desc}
        autosize
        onChange={(e) => set({ desc: e.currentTarget.value })}
      />
      <SelectField<VariableType>
        label={t('templates.variables.type')}
        value={variable.type}
        data={types}
        onChange={(type) => setVariable(changeVariableType(variable, type))}
      />
      <ValueInput variable={variable} onChange={(value) => set({ value })} />
      {variable.type === 'option' && (
        <OptionsEditor options={variable.options ?? []} onChange={(options) => set({ options })} />
      )}
      <SwitchInput
        label={t('templates.variables.required')}
        checked={variable.required}
        onChange={(required) => set({ required })}
      />
      <SwitchInput
        label={t('templates.variables.userEdit')}
        checked={variable.userEdit}
        onChange={(userEdit) => set({ userEdit })}
      />
    </EntryOverlay>
  );
}

/** The default value, typed like the server settings tab: switch, number, choice or text. */
function ValueInput({ variable, onChange }: { variable: Variable; onChange: (value: unknown) => void }) {
  const { t } = useTranslation();
  const label = t('templates.variables.value');
  const { value } = variable;
  if (variable.type === 'boolean') {
    return <SwitchInput label={label} checked={value === true || value === 'true'} onChange={onChange} />;
  }
  if (variable.type === 'integer') {
    const numeric = typeof value === 'number' ? value : Number(value ?? 0);
    return (
      <NumberInput
        label={label}
        allowDecimal={false}
        value={Number.isFinite(numeric) ? numeric : 0}
        onChange={(next) => onChange(typeof next === 'number' ? next : Number(next) || 0)}
      />
    );
  }
  return <TextField label={label} value={valueText(value)} onChange={onChange} />;
}
