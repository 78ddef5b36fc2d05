import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Task } from '@hearth/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { useSession } from '../../../api/useSession';
import { describeCron } from '../../../components/cron/describe';
import { formatDateTime } from '../../../i18n/format';
import { PageLoader } from '../../../components/PageLoader';
import type { ServerTabProps } from '../tabs';
import { taskKeys, tasksApi, tasksQuery } from './api';
import { editTaskForm, newTaskForm, taskBody, type TaskForm } from './task-form';
import { offeredStepTypes, stepHolder } from './operation-types';
import { TaskOverlay } from './TaskOverlay';

type Editing = { taskId: string | null; form: TaskForm } | null;

/** Tasks tab: list with edit, run and delete, an Add button, new/edit overlays. */
export default function TasksTab({ server, permissions }: ServerTabProps) {
  const { t, i18n } = useTranslation();
  const { scopes } = useSession();
  const offered = offeredStepTypes(stepHolder(scopes, permissions));
  const queryClient = useQueryClient();
  // A triggered task whose new run the list has not shown yet: the daemon may record it a moment after
  // answering the trigger, so the list keeps polling until that run's lastRun appears.
  const [triggered, setTriggered] = useState<{ taskId: string; since: number | null } | null>(null);
  // A run reports its outcome later (lastRun goes running → success/failed): poll while one is going.
  const list = useQuery({
    ...tasksQuery(server.id),
    refetchInterval: (query) => {
      const tasks = query.state.data?.tasks ?? {};
      const running = Object.values(tasks).some((task) => task.lastRun?.result === 'running');
      const awaited =
        triggered !== null && (tasks[triggered.taskId]?.lastRun?.at ?? null) === triggered.since;
      return running || awaited ? 1000 : false;
    },
  });
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: taskKeys.list(server.id) });
  const save = useMutation({
    mutationFn: async (e: { taskId: string | null; form: TaskForm }) =>
      e.taskId
        ? tasksApi.update(server.id, e.taskId, taskBody(e.form))
        : tasksApi.create(server.id, taskBody(e.form)),
    onSuccess: async () => {
      notifySuccess(t('servers.tasks.saved'));
      setEditing(null);
      await refresh();
    },
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (taskId: string) => tasksApi.remove(server.id, taskId),
    onSuccess: async () => {
      notifySuccess(t('servers.tasks.deleted'));
      await refresh();
    },
    onError: notifyError,
  });
  const run = useMutation({
    mutationFn: (taskId: string) => tasksApi.run(server.id, taskId),
    onMutate: (taskId: string) =>
      setTriggered({ taskId, since: list.data?.tasks[taskId]?.lastRun?.at ?? null }),
    onSuccess: async () => {
      notifySuccess(t('servers.tasks.triggered'));
      await refresh();
    },
    onError: notifyError,
  });
  if (!list.data) return <PageLoader />;
  const tasks = Object.values(list.data.tasks);
  const schedule = (task: Task) =>
    task.cronSchedule
      ? (describeCron(task.cronSchedule, i18n.language) ?? task.cronSchedule)
      : t('servers.tasks.manual');
  return (
    <Card withBorder radius="md" padding="lg" data-testid="tasks-tab">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('servers.tasks.title')}</Title>
          <Button onClick={() => setEditing({ taskId: null, form: newTaskForm() })} data-testid="task-add">
            {t('servers.tasks.add')}
          </Button>
        </Group>
        {tasks.length === 0 && <Text c="dimmed">{t('servers.tasks.empty')}</Text>}
        {tasks.map((task) => (
          <Group key={task.id} justify="space-between" data-testid={`task-${task.name}`}>
            <Stack gap={0}>
              <Text fw={500}>{task.name}</Text>
              <Text size="sm" c="dimmed" data-testid="task-description">
                {schedule(task)}
              </Text>
              <Text size="xs" c="dimmed" data-testid="task-last-run">
                {task.lastRun
                  ? t('servers.tasks.lastRun', {
                      when: formatDateTime(task.lastRun.at),
                      result: t(`servers.tasks.results.${task.lastRun.result}`),
                    })
                  : t('servers.tasks.neverRun')}
              </Text>
              {task.nextRun !== null && (
                // The daemon computes it from the cron and its time zone; an instant, shown in the viewer's own.
                <Text size="xs" c="dimmed" data-testid="task-next-run">
                  {t('servers.tasks.nextRun', { when: formatDateTime(task.nextRun) })}
                </Text>
              )}
            </Stack>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                onClick={() => setEditing({ taskId: task.id, form: editTaskForm(task) })}
                data-testid="task-edit"
              >
                {t('servers.tasks.edit')}
              </Button>
              <Button variant="light" size="xs" onClick={() => run.mutate(task.id)} data-testid="task-run">
                {t('servers.tasks.run')}
              </Button>
              <Button
                variant="light"
                color="red"
                size="xs"
                onClick={() => remove.mutate(task.id)}
                data-testid="task-delete"
              >
                {t('servers.tasks.delete')}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
      {editing && (
        <TaskOverlay
          title={t(editing.taskId ? 'servers.tasks.editTitle' : 'servers.tasks.new')}
          initial={editing.form}
          offered={offered}
          saving={save.isPending}
          onClose={() => setEditing(null)}
          onSave={(form) => save.mutate({ taskId: editing.taskId, form })}
        />
      )}
    </Card>
  );
}
