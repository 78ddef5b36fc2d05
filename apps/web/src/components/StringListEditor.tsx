import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { TextField } from './TextField';
import { ListEditorFrame, RemoveRowButton } from './ListEditorParts';

export interface StringListEditorProps {
  value: readonly string[];
  onChange: (value: string[]) => void;
  label?: string;
  addLabel: string;
  removeLabel: string;
  placeholder?: string;
  testId?: string;
}

/** A list of strings: edit any entry in place, remove it, or add a new one at the end. */
export function StringListEditor(props: StringListEditorProps) {
  const { value, onChange, label, addLabel, removeLabel, placeholder, testId } = props;
  const [draft, setDraft] = useState('');
  const add = () => {
    if (draft === '') return;
    onChange([...value, draft]);
    setDraft('');
  };
  return (
    <ListEditorFrame label={label} testId={testId}>
      {value.map((item, i) => (
        <Group key={i} gap={6} wrap="nowrap">
          <TextField
            style={{ flex: 1 }}
            aria-label={`${label ?? ''} ${i + 1}`.trim()}
            value={item}
            onChange={(next) => onChange(value.map((old, j) => (j === i ? next : old)))}
          />
          <RemoveRowButton label={removeLabel} onClick={() => onChange(value.filter((_old, j) => j !== i))} />
        </Group>
      ))}
      <Group gap={6} wrap="nowrap">
        <TextField
          style={{ flex: 1 }}
          placeholder={placeholder}
          aria-label={`${label ?? ''} ${addLabel}`.trim()}
          value={draft}
          onChange={setDraft}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="light" onClick={add} disabled={draft === ''}>
          {addLabel}
        </Button>
      </Group>
    </ListEditorFrame>
  );
}
