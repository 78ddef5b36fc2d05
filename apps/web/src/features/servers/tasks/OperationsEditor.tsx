import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { isKnownProcessorType, isRuntimeStepType, type TaskOperation } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/SelectField';
import { describeProcessor } from '../../templates/editor/processorFields';
import { ProcessorOverlay } from '../../templates/editor/ProcessorOverlay';
import { newProcessor } from '../../templates/model/processors';
import { RemoveRowButton } from '../../../components/ListEditorParts';
import { firstStepType, rowStepTypes } from './operation-types';

interface Props {
  value: TaskOperation[];
  onChange: (operations: TaskOperation[]) => void;
  /** The step types this user may save (operation-types.ts); others are neither offered nor added. */
  offered: string[];
}

const runtimeDefaults: Record<string, TaskOperation> = {
  console: { type: 'console', command: '' },
  sleep: { type: 'sleep', seconds: 60 },
  wait: { type: 'wait', timeoutSeconds: 600 },
};

function blank(type: string): TaskOperation {
  if (isRuntimeStepType(type)) return runtimeDefaults[type] ?? { type };
  return isKnownProcessorType(type) && type === 'command' ? newProcessor() : { type };
}

/** Task steps: runtime steps inline, processors with the template editor's processor overlay. */
export function OperationsEditor({ value, onChange, offered }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<number | null>(null);
  const firstType = firstStepType(offered);
  // Every offered type by name: runtime steps and the known processors (an unknown stored type shows as is).
  const label = (type: string) =>
    isRuntimeStepType(type)
      ? t(`servers.tasks.types.${type}`)
      : isKnownProcessorType(type)
        ? t(`templates.processors.types.${type}`)
        : type;
  const put = (index: number, op: TaskOperation) => onChange(value.map((o, i) => (i === index ? op : o)));
  const editingStep = editing === null ? undefined : value[editing];
  return (
    <Stack gap="xs" data-testid="task-operations">
      <Text fw={500}>{t('servers.tasks.operations')}</Text>
      {value.map((op, index) => (
        <Group key={index} align="flex-end" wrap="nowrap" data-testid={`task-operation-${index}`}>
          <SelectField<string>
            label={t('servers.tasks.operationType')}
            value={op.type}
            data={rowStepTypes(offered, op.type).map((type) => ({ value: type, label: label(type) }))}
            onChange={(type) => put(index, blank(type))}
          />
          <OperationFields op={op} onChange={(next) => put(index, next)} onEdit={() => setEditing(index)} />
          <RemoveRowButton
            label={t('servers.tasks.delete')}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          />
        </Group>
      ))}
      <Group>
        <Button
          variant="default"
          size="xs"
          disabled={firstType === null}
          onClick={() => firstType !== null && onChange([...value, blank(firstType)])}
          data-testid="task-add-operation"
        >
          {t('servers.tasks.addOperation')}
        </Button>
      </Group>
      {editing !== null && editingStep && (
        <ProcessorOverlay
          step={editingStep}
          types={offered.filter((type) => !isRuntimeStepType(type))}
          onClose={() => setEditing(null)}
          onSave={(step) => {
            put(editing, step);
            setEditing(null);
          }}
        />
      )}
    </Stack>
  );
}

function OperationFields(props: {
  op: TaskOperation;
  onChange: (op: TaskOperation) => void;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const { op, onChange } = props;
  if (op.type === 'console' && 'command' in op)
    return (
      <TextInput
        label={t('servers.tasks.fields.command')}
        value={String(op.command)}
        onChange={(e) => onChange({ ...op, command: e.currentTarget.value })}
        style={{ flex: 1 }}
        data-testid="task-op-command"
      />
    );
  if (op.type === 'sleep' && 'seconds' in op)
    return (
      <NumberInput
        label={t('servers.tasks.fields.seconds')}
        min={1}
        value={Number(op.seconds)}
        onChange={(v) => onChange({ ...op, seconds: Number(v) || 1 })}
      />
    );
  if (op.type === 'wait' && 'timeoutSeconds' in op)
    return (
      <NumberInput
        label={t('servers.tasks.fields.timeoutSeconds')}
        min={1}
        value={Number(op.timeoutSeconds)}
        onChange={(v) => onChange({ ...op, timeoutSeconds: Number(v) || 1 })}
      />
    );
  if (isRuntimeStepType(op.type)) return <div style={{ flex: 1 }} />;
  return (
    <Button variant="subtle" onClick={props.onEdit} style={{ flex: 1 }}>
      {describeProcessor(op)}
    </Button>
  );
}
