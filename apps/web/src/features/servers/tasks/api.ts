import type { TaskCreatedResponse, TaskInput, TaskListResponse } from '@hearth/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';

const base = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}/tasks`;
const one = (serverId: string, taskId: string) => `${base(serverId)}/${encodeURIComponent(taskId)}`;

export const taskKeys = { list: (serverId: string) => ['servers', 'tasks', serverId] as const };

export const tasksQuery = (serverId: string) =>
  queryOptions({
    queryKey: taskKeys.list(serverId),
    queryFn: () => api.get<TaskListResponse>(base(serverId)),
  });

/** What the editor sends: a blank or unscheduled schedule is `null`. */
export type TaskBody = Pick<TaskInput, 'name' | 'operations'> & { cronSchedule: string | null };

export const tasksApi = {
  create: (serverId: string, body: TaskBody) => api.post<TaskCreatedResponse>(base(serverId), body),
  update: (serverId: string, taskId: string, body: TaskBody) => api.put<void>(one(serverId, taskId), body),
  remove: (serverId: string, taskId: string) => api.delete<void>(one(serverId, taskId)),
  run: (serverId: string, taskId: string) => api.post<void>(`${one(serverId, taskId)}/run`),
};
