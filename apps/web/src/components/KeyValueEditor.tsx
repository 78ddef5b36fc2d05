import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { TextField } from './TextField';
import { ListEditorFrame, RemoveRowButton } from './ListEditorParts';

type Row = [key: string, value: string];

export interface KeyValueEditorProps {
  value: Readonly<Record<string, string>>;
  onChange: (value: Record<string, string>) => void;
  label?: string;
  keyLabel: string;
  valueLabel: string;
  addLabel: string;
  removeLabel: string;
  testId?: string;
}

/** Rows with an empty key are kept on screen while typing but not written to the map. */
function toMap(rows: readonly Row[]): Record<string, string> {
  return Object.fromEntries(rows.filter(([key]) => key !== ''));
}

const same = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
  JSON.stringify(a) === JSON.stringify(b);

/** Edits a string → string map as rows of key and value. */
export function KeyValueEditor(props: KeyValueEditorProps) {
  const { value, onChange, label, keyLabel, valueLabel, addLabel, removeLabel, testId } = props;
  const [rows, setRows] = useState<Row[]>(() => Object.entries(value));
  // A change from outside (another view, a reload) replaces the rows; our own edits already match.
  if (!same(toMap(rows), value)) setRows(Object.entries(value));
  const update = (next: Row[]) => {
    setRows(next);
    onChange(toMap(next));
  };
  return (
    <ListEditorFrame label={label} testId={testId}>
      {rows.map(([key, val], i) => (
        <Group key={i} gap={6} wrap="nowrap" align="flex-end">
          <TextField
            style={{ flex: 1 }}
            aria-label={`${keyLabel} ${i + 1}`}
            placeholder={keyLabel}
            value={key}
            onChange={(k) => update(rows.map((r, j): Row => (j === i ? [k, r[1]] : r)))}
          />
          <TextField
            style={{ flex: 2 }}
            aria-label={`${valueLabel} ${i + 1}`}
            placeholder={valueLabel}
            value={val}
            onChange={(v) => update(rows.map((r, j): Row => (j === i ? [r[0], v] : r)))}
          />
          <RemoveRowButton label={removeLabel} onClick={() => update(rows.filter((_r, j) => j !== i))} />
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={() => setRows([...rows, ['', '']])}>
          {addLabel}
        </Button>
      </Group>
    </ListEditorFrame>
  );
}
