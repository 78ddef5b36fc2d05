import { Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CronEditor } from '../../../components/cron/CronEditor';
import { describeCron } from '../../../components/cron/describe';
import { OperationsEditor } from './OperationsEditor';
import { canSave, type TaskForm } from './task-form';
import { DialogActions } from '../../../components/DialogActions';

interface Props {
  title: string;
  initial: TaskForm;
  /** The step types this user may save (operation-types.ts). */
  offered: string[];
  saving: boolean;
  onSave: (form: TaskForm) => void;
  onClose: () => void;
}

/** New / edit task overlay: name, scheduled switch + schedule editor, operations; save only when valid. */
export function TaskOverlay({ title, initial, offered, saving, onSave, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<TaskForm>(initial);
  const valid = canSave(form);
  const description = form.scheduled ? describeCron(form.expression, i18n.language) : null;
  return (
    <Modal opened onClose={onClose} title={title} size="xl" data-testid="task-overlay">
      <Stack>
        <TextInput
          label={t('servers.tasks.name')}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          data-testid="task-name"
        />
        <Switch
          label={t('servers.tasks.scheduled')}
          checked={form.scheduled}
          onChange={(e) => setForm({ ...form, scheduled: e.currentTarget.checked })}
          data-testid="task-scheduled"
        />
        {form.scheduled && (
          <>
            <CronEditor
              state={form.cron}
              onChange={(cron, expression) => setForm({ ...form, cron, expression })}
            />
            {/* Red only when the schedule itself is unreadable, not while the name or steps are missing. */}
            <Text size="sm" c={description ? 'dimmed' : 'red'} data-testid="task-schedule-description">
              {form.expression} — {description ?? t('servers.tasks.invalidSchedule')}
            </Text>
          </>
        )}
        <OperationsEditor
          value={form.operations}
          offered={offered}
          onChange={(operations) => setForm({ ...form, operations })}
        />
        <DialogActions
          onCancel={onClose}
          onSave={() => onSave(form)}
          loading={saving}
          disabled={!valid}
          saveTestId="task-save"
        />
      </Stack>
    </Modal>
  );
}
