/** Task overlay rules. */
import { describe, expect, it } from 'vitest';
import { canSave, editTaskForm, newTaskForm, taskBody } from '../src/features/servers/tasks/task-form';

describe('task overlay rules', () => {
  it('Add starts scheduled with 0 0 */1 * * in the Daily tab', () => {
    const form = newTaskForm();
    expect(form).toMatchObject({ scheduled: true, expression: '0 0 */1 * *', cron: { mode: 'daily' } });
    expect(canSave(form)).toBe(false); // no name yet
    expect(canSave({ ...form, name: 'Nightly' })).toBe(true);
  });

  it('edit: scheduled when the cron text is not blank, else unscheduled with the default expression', () => {
    const scheduled = editTaskForm({ name: 'a', cronSchedule: '0 4 * * 0,6', operations: [] });
    expect(scheduled).toMatchObject({ scheduled: true, expression: '0 4 * * 0,6', cron: { mode: 'weekly' } });
    for (const cronSchedule of [null, '', '   ']) {
      expect(editTaskForm({ name: 'a', cronSchedule, operations: [] })).toMatchObject({
        scheduled: false,
        expression: '0 0 */1 * *',
      });
    }
  });

  it('saving unscheduled sends cron null; blank name or invalid schedule cannot be saved', () => {
    const form = { ...newTaskForm(), name: ' Nightly ', scheduled: false };
    expect(taskBody(form)).toEqual({ name: 'Nightly', cronSchedule: null, operations: [] });
    expect(taskBody({ ...form, scheduled: true })).toMatchObject({ cronSchedule: '0 0 */1 * *' });
    expect(canSave({ ...form, name: '   ' })).toBe(false);
    expect(canSave({ ...form, scheduled: true, expression: '0 99 * * *' })).toBe(false);
    expect(canSave({ ...form, scheduled: true, expression: '@daily' })).toBe(true);
    expect(canSave({ ...form, scheduled: true, expression: '0 4 ? * *' })).toBe(true);
  });
});
