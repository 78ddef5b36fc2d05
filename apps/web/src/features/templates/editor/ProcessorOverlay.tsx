import { Alert, Code, Textarea } from '@mantine/core';
import { isKnownProcessorType, knownProcessorTypes, type Processor } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/SelectField';
import { StringListEditor } from '../../../components/StringListEditor';
import { SwitchInput } from '../../../components/SwitchInput';
import { TextField } from '../../../components/TextField';
import { changeProcessorType } from '../model/processors';
import { processorFields, type FieldKind } from './processorFields';
import { EntryOverlay } from './EntryOverlay';

interface Props {
  step: Processor;
  /** The types offered (default: every known one); a task editor offers only what its user may save. */
  types?: readonly string[];
  onSave: (step: Processor) => void;
  onClose: () => void;
}

type Fields = Record<string, unknown>;

/** Edits one processor; changing its type clears the other fields. */
export function ProcessorOverlay({ step, types: offered = knownProcessorTypes, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Processor>(step);
  const types = offered.includes(draft.type) ? [...offered] : [...offered, draft.type];
  const fields = draft as Fields;
  return (
    <EntryOverlay title={t('templates.processors.edit')} onClose={onClose} onSave={() => onSave(draft)}>
      <SelectField<string>
        label={t('templates.processors.type')}
        value={draft.type}
        data={types.map((type) => ({
          value: type,
          // A label for each known type (issue 16: "alterfile", "mojangdl" were shown as raw ids).
          label: isKnownProcessorType(type) ? t(`templates.processors.types.${type}`) : type,
        }))}
        onChange={(type) => setDraft(changeProcessorType(draft, type))}
      />
      {isKnownProcessorType(draft.type) ? (
        processorFields[draft.type].map(([name, kind]) => (
          <FieldInput
            key={name}
            kind={kind}
            label={t(`templates.processors.fields.${name}`)}
            value={fields[name]}
            onChange={(value) => setDraft({ ...draft, [name]: value })}
          />
        ))
      ) : (
        <Alert color="yellow" title={t('templates.processors.unknown', { type: draft.type })}>
          <Code block>{JSON.stringify(draft, null, 2)}</Code>
        </Alert>
      )}
    </EntryOverlay>
  );
}

interface FieldProps {
  kind: FieldKind;
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
}

function FieldInput({ kind, label, value, onChange }: FieldProps) {
  const { t } = useTranslation();
  const text = typeof value === 'string' ? value : '';
  switch (kind) {
    case 'list':
      return (
        <StringListEditor
          label={label}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
          addLabel={t('templates.widgets.add')}
          removeLabel={t('templates.widgets.remove')}
        />
      );
    case 'switch':
      return <SwitchInput label={label} checked={value !== false} onChange={onChange} />;
    case 'textarea':
      return (
        <Textarea
          label={label}
          value={text}
          autosize
          minRows={3}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'releaseType':
      return (
        <SelectField<string>
          label={label}
          value={text || 'recommended'}
          data={['recommended', 'latest']}
          onChange={onChange}
        />
      );
    case 'text':
      return <TextField label={label} value={text} onChange={onChange} />;
  }
}
