/** The task overlay's rules, pure for unit tests. */
import { canSaveTask, DEFAULT_CRON_EXPRESSION, type Task, type TaskOperation } from '@hearth/contract';
import { fromExpression, type CronState } from '../../../components/cron/cron-model';
import type { TaskBody } from './api';

export interface TaskForm {
  name: string;
  /** Editor-only: not sent; an unscheduled task is saved with `cronSchedule: null`. */
  scheduled: boolean;
  cron: CronState;
  expression: string;
  operations: TaskOperation[];
}

/** Add starts scheduled with the default expression `0 0 *\/1 * *`. */
export function newTaskForm(): TaskForm {
  return {
    name: '',
    scheduled: true,
    cron: fromExpression(DEFAULT_CRON_EXPRESSION),
    expression: DEFAULT_CRON_EXPRESSION,
    operations: [],
  };
}

/** Edit: scheduled when the cron text is not blank, otherwise unscheduled with the default expression. */
export function editTaskForm(task: Pick<Task, 'name' | 'cronSchedule' | 'operations'>): TaskForm {
  const text = task.cronSchedule?.trim() ?? '';
  const expression = text || DEFAULT_CRON_EXPRESSION;
  return {
    name: task.name,
    scheduled: text !== '',
    cron: fromExpression(expression),
    expression,
    operations: task.operations,
  };
}

export function taskBody(form: TaskForm): TaskBody {
  return {
    name: form.name.trim(),
    cronSchedule: form.scheduled && form.expression.trim() ? form.expression.trim() : null,
    operations: form.operations,
  };
}

export function canSave(form: TaskForm): boolean {
  return canSaveTask(form.name, form.expression, form.scheduled);
}
