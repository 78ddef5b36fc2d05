/**
 * Scheduled and manual tasks of a server. A task's operations are install
 * processors (every type the daemon runs) plus runtime steps that act on the running server, so
 * "say a warning → sleep 5 minutes → stop → wait → start" is one task.
 */
import { z } from 'zod';
import { cronError } from './cron';
import { processorSchema } from './template-processors';

export * from './cron';

const seconds = (max: number) => z.number().positive().max(max);

export const runtimeStepSchemas = {
  /** One line to the running server's console input (e.g. `say Restart in 5 minutes`). */
  console: z.object({
    type: z.literal('console'),
    command: z
      .string()
      .min(1)
      .regex(/^[^\r\n]*$/, 'one line only'),
  }),
  start: z.object({ type: z.literal('start') }),
  /** Stops and waits until the process has exited (killed after the daemon's stop timeout). */
  stop: z.object({ type: z.literal('stop') }),
  restart: z.object({ type: z.literal('restart') }),
  kill: z.object({ type: z.literal('kill') }),
  sleep: z.object({ type: z.literal('sleep'), seconds: seconds(86_400) }),
  /** Waits until the server is stopped (e.g. after a `stop` typed to its console); fails after the timeout. */
  wait: z.object({ type: z.literal('wait'), timeoutSeconds: seconds(86_400).default(600) }),
  /** A backup of the server (docs/backups.md), with its hooks and the policy's retention; the step fails with it. */
  backup: z.object({ type: z.literal('backup') }),
} as const;

export type RuntimeStepType = keyof typeof runtimeStepSchemas;
export const runtimeStepTypes = Object.keys(runtimeStepSchemas) as RuntimeStepType[];
export type RuntimeStep = {
  [K in RuntimeStepType]: z.infer<(typeof runtimeStepSchemas)[K]>;
}[RuntimeStepType];

export function isRuntimeStepType(type: string): type is RuntimeStepType {
  return Object.hasOwn(runtimeStepSchemas, type);
}

/** A runtime step, or any processor (unknown processor types parse; the daemon refuses them on save). */
export const taskOperationSchema = z.looseObject({ type: z.string().min(1) }).transform((value, ctx) => {
  const schema = isRuntimeStepType(value.type) ? runtimeStepSchemas[value.type] : processorSchema;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
  }
  return z.NEVER;
});
export type TaskOperation = z.output<typeof taskOperationSchema>;

export const taskIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -');
export type TaskId = z.infer<typeof taskIdSchema>;

/** Blank or null = manual only (stored as null). Validity is checked by the caller (ErrInvalidCron). */
export const cronScheduleSchema = z
  .string()
  .nullish()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : null));
export type CronSchedule = z.infer<typeof cronScheduleSchema>;

/** The body of POST/PUT `…/tasks`; the editor-only `scheduled` flag and unknown keys are dropped. */
export const taskInputSchema = z.object({
  name: z.string().trim().min(1).max(100),
  cronSchedule: cronScheduleSchema,
  operations: z.array(taskOperationSchema).max(100).default([]),
});
export type TaskInput = z.output<typeof taskInputSchema>;

/** `running` while a run is in progress; `skipped` when it was due while the previous run still went. */
export const taskResultSchema = z.enum(['running', 'success', 'failed', 'skipped']);
export type TaskResult = z.infer<typeof taskResultSchema>;

export const taskLastRunSchema = z.object({
  /** Unix ms when the run started (or was skipped). */
  at: z.number(),
  result: taskResultSchema,
  /** Why it failed or was skipped. */
  error: z.string().optional(),
});
export type TaskLastRun = z.infer<typeof taskLastRunSchema>;

export const taskSchema = z.object({
  id: taskIdSchema,
  name: z.string(),
  cronSchedule: z.string().nullable(),
  operations: z.array(taskOperationSchema),
  lastRun: taskLastRunSchema.nullable(),
  /** Unix ms of the next scheduled run; null for manual tasks. */
  nextRun: z.number().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

/** `GET …/tasks`: keyed by id, like PufferPanel's `{"tasks": {"t1": {…}}}` (each also carries its id). */
export const taskListResponseSchema = z.object({ tasks: z.record(z.string(), taskSchema) });
export type TaskListResponse = z.infer<typeof taskListResponseSchema>;

/**
 * `GET …/tasks` as the daemon answers it: each operation as stored (it passed taskOperationSchema when saved).
 * The response is described with the stored shape because that schema's normalising transform cannot run
 * backwards to check a response; the listing's type is still TaskListResponse.
 */
export const storedTaskOperationSchema = z.looseObject({ type: z.string() });
export type StoredTaskOperation = z.infer<typeof storedTaskOperationSchema>;
export const taskViewSchema = taskSchema.extend({ operations: z.array(storedTaskOperationSchema) });
export type TaskView = z.infer<typeof taskViewSchema>;
export const taskListViewSchema = z.object({ tasks: z.record(z.string(), taskViewSchema) });
export type TaskListView = z.infer<typeof taskListViewSchema>;

export const taskCreatedResponseSchema = z.object({ id: taskIdSchema });
export type TaskCreatedResponse = z.infer<typeof taskCreatedResponseSchema>;

/** Save rule of the task editor: a non-blank name and a valid (or blank) schedule. */
export function canSaveTask(name: string, cronSchedule: string | null, scheduled: boolean): boolean {
  return name.trim() !== '' && (!scheduled || cronError(cronSchedule) === null);
}
