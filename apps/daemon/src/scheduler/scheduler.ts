/**
 * Per-server tasks: the stored list, one croner job per scheduled task, and the runs in progress. A task
 * never overlaps itself: a run due (or asked for) while the previous one still goes is skipped and logged.
 * Tasks are (re)loaded with the definition (boot, reload) and removed with the server. A task belongs to
 * whoever last saved it and runs with that owner's current access (task-owner.ts, docs/daemon.md § Tasks).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, type Task, type TaskInput, type TaskLastRun } from '@hearth/contract';
import { recordNodeEvent } from '../panel-link/node-events';
import type { Server } from '../server/server';
import { checkSchedule, scheduleJob, type TaskSettings } from './cron';
import type { CronJob } from './cron-job';
import { assertOperationsRunnable } from './steps';
import { executeTask } from './task-runner';
import { assertCallerMayRun, ownerChecks, type TaskCaller } from './task-owner';
import { parseTaskMap, type StoredTask, type TaskStore } from './task-store';

interface ServerTasks {
  tasks: Map<string, StoredTask>;
  jobs: Map<string, CronJob>;
  running: Map<string, AbortController>;
  /** Writes of this server's file, in order (a run's result and an API change never interleave). */
  writes: Promise<void>;
}

const emptyState = (): ServerTasks => ({
  tasks: new Map(),
  jobs: new Map(),
  running: new Map(),
  writes: Promise.resolve(),
});

export class TaskScheduler {
  private readonly servers = new Map<string, ServerTasks>();

  constructor(
    private readonly store: TaskStore,
    private readonly settings: TaskSettings,
    private readonly logger: Logger,
    private readonly serverOf: (id: string) => Server | undefined,
  ) {}

  /** (Re)reads a server's tasks and schedules them; `legacy` is a v2 definition's `tasks` map. */
  async load(serverId: string, legacy?: unknown): Promise<void> {
    this.unload(serverId);
    const onBad = (taskId: string, reason: string) =>
      this.logger.error({ serverId, taskId, reason }, 'stored task is invalid; skipped');
    const stored = await this.store.read(serverId, onBad).catch((err: unknown) => {
      // A broken file must not keep the server from loading; it is left as is for the admin to fix.
      this.logger.error({ err, serverId }, 'cannot read the tasks file; no tasks scheduled');
      return new Map<string, StoredTask>();
    });
    const state = emptyState();
    state.tasks = stored ?? parseTaskMap(legacy, onBad);
    for (const task of state.tasks.values()) {
      // A run cut short by the previous daemon's death never finished.
      if (task.lastRun?.result === 'running')
        task.lastRun = { ...task.lastRun, result: 'failed', error: 'interrupted: the daemon stopped' };
    }
    this.servers.set(serverId, state);
    for (const [taskId, task] of state.tasks) this.schedule(serverId, state, taskId, task);
    if (!stored && state.tasks.size > 0) await this.persist(serverId, state, (tasks) => tasks);
  }

  /** A server's tasks as stored, owners included (what a transfer carries to the next node). */
  stored(serverId: string): Record<string, StoredTask> {
    return Object.fromEntries(this.stateOf(serverId).tasks);
  }

  /** Stores tasks another node kept (a transfer's, owners included) for a server before it loads. */
  async receive(serverId: string, tasks: Record<string, StoredTask>): Promise<void> {
    if (Object.keys(tasks).length > 0) await this.store.write(serverId, new Map(Object.entries(tasks)));
  }

  /** Stops the jobs and aborts running tasks of a server (reload, delete, shutdown). */
  unload(serverId: string): void {
    const state = this.servers.get(serverId);
    if (!state) return;
    this.servers.delete(serverId);
    for (const job of state.jobs.values()) job.stop();
    for (const abort of state.running.values()) abort.abort();
  }

  async remove(serverId: string): Promise<void> {
    const state = this.servers.get(serverId);
    this.unload(serverId);
    await state?.writes;
    await this.store.remove(serverId);
  }

  stopAll(): void {
    for (const id of [...this.servers.keys()]) this.unload(id);
  }

  list(serverId: string): Record<string, Task> {
    const state = this.stateOf(serverId);
    const entries = [...state.tasks].map(([id, task]) => [id, this.view(state, id, task)] as const);
    return Object.fromEntries(entries);
  }

  /**
   * Saves a new task owned by `caller` (`input` passed taskInputSchema at the route); 403 when the caller could
   * not run one of its steps by hand.
   */
  async create(serverId: string, input: TaskInput, caller: TaskCaller): Promise<string> {
    const state = this.stateOf(serverId);
    const task: StoredTask = { ...this.check(input, caller), owner: caller.sub, lastRun: null };
    const taskId = randomBytes(8).toString('base64url');
    await this.persist(serverId, state, (tasks) => new Map(tasks).set(taskId, task));
    this.schedule(serverId, state, taskId, task);
    return taskId;
  }

  /** Replaces a task; the caller becomes its owner (so the same check as create applies). */
  async update(serverId: string, taskId: string, input: TaskInput, caller: TaskCaller): Promise<void> {
    const state = this.stateOf(serverId);
    this.taskOf(state, taskId);
    const checked = this.check(input, caller);
    let task: StoredTask | undefined;
    await this.persist(serverId, state, (tasks) => {
      task = { ...checked, owner: caller.sub, lastRun: this.taskOf(state, taskId, tasks).lastRun };
      return new Map(tasks).set(taskId, task);
    });
    if (task) this.schedule(serverId, state, taskId, task);
  }

  async delete(serverId: string, taskId: string): Promise<void> {
    const state = this.stateOf(serverId);
    this.taskOf(state, taskId);
    await this.persist(serverId, state, (tasks) => {
      this.taskOf(state, taskId, tasks);
      const next = new Map(tasks);
      next.delete(taskId);
      return next;
    });
    state.jobs.get(taskId)?.stop();
    state.jobs.delete(taskId);
  }

  /**
   * Runs a task now; returns at once (the run reports in the console). The caller must be able to run every
   * step by hand too: otherwise triggering someone else's task would lend the caller its owner's access.
   */
  run(serverId: string, taskId: string, caller: TaskCaller): void {
    assertCallerMayRun(caller, this.taskOf(this.stateOf(serverId), taskId).operations);
    void this.fire(serverId, taskId, 'manual');
  }

  /** What the input's shape cannot say: the steps exist, the caller may run each, the schedule is valid. */
  private check(input: TaskInput, caller: TaskCaller): TaskInput {
    assertOperationsRunnable(input.operations);
    assertCallerMayRun(caller, input.operations);
    return { ...input, cronSchedule: checkSchedule(input.cronSchedule) };
  }

  private stateOf(serverId: string): ServerTasks {
    let state = this.servers.get(serverId);
    if (!state) this.servers.set(serverId, (state = emptyState()));
    return state;
  }

  private taskOf(state: ServerTasks, taskId: string, tasks = state.tasks): StoredTask {
    const task = tasks.get(taskId);
    if (!task) throw new AppError('ErrTaskNotFound', { id: taskId });
    return task;
  }

  private view(state: ServerTasks, id: string, task: StoredTask): Task {
    const next = state.jobs.get(id)?.nextRun();
    const { owner: _owner, ...shown } = task;
    return { id, ...shown, nextRun: next ? next.getTime() : null };
  }

  private schedule(serverId: string, state: ServerTasks, taskId: string, task: StoredTask): void {
    state.jobs.get(taskId)?.stop();
    state.jobs.delete(taskId);
    if (!task.cronSchedule) return;
    try {
      const job = scheduleJob(
        task.cronSchedule,
        this.settings,
        () => void this.fire(serverId, taskId, 'schedule'),
      );
      state.jobs.set(taskId, job);
    } catch (err) {
      this.logger.error({ err, serverId, taskId }, 'stored task schedule is invalid; not scheduled');
    }
  }

  /**
   * Applies `change` to the current list once earlier writes are done, writes the result, then makes it the
   * current list: a run's result and an API change never overwrite each other.
   */
  private persist(
    serverId: string,
    state: ServerTasks,
    change: (tasks: Map<string, StoredTask>) => Map<string, StoredTask>,
  ): Promise<void> {
    const write = state.writes.then(async () => {
      const next = change(state.tasks);
      await this.store.write(serverId, next);
      state.tasks = next;
    });
    state.writes = write.catch((err: unknown) => this.logger.warn({ err, serverId }, 'tasks not written'));
    return write;
  }

  private record(serverId: string, state: ServerTasks, taskId: string, lastRun: TaskLastRun): void {
    if (this.servers.get(serverId) !== state) return; // the server was deleted or reloaded meanwhile
    const change = (tasks: Map<string, StoredTask>) => {
      const task = tasks.get(taskId);
      return task ? new Map(tasks).set(taskId, { ...task, lastRun }) : tasks;
    };
    this.persist(serverId, state, change).catch(() => undefined); // persist logs the failure
  }

  private async fire(serverId: string, taskId: string, trigger: 'schedule' | 'manual'): Promise<void> {
    const state = this.servers.get(serverId);
    const task = state?.tasks.get(taskId);
    const server = this.serverOf(serverId);
    if (!state || !task || !server) return;
    if (state.running.has(taskId)) {
      server.say('task.skipped', { name: task.name, trigger });
      this.logger.info({ serverId, taskId }, 'task run skipped: previous run still going');
      return;
    }
    const abort = new AbortController();
    state.running.set(taskId, abort);
    const at = this.settings.clock.now(); // the scheduler's time, as its due times are
    this.record(serverId, state, taskId, { at, result: 'running' });
    try {
      const checks = ownerChecks(this.settings.ownerAccess, serverId, task.owner, abort.signal);
      const outcome = await executeTask(server, task.name, task.operations, abort.signal, checks);
      this.record(serverId, state, taskId, { at, ...outcome });
      // The run and its result for the panel's activity log (docs/activity.md § Node events).
      recordNodeEvent(server.settings, {
        action: 'server.task.finished',
        serverId,
        actor: { type: 'task', id: taskId, label: task.name.slice(0, 191) },
        ip: null,
        details: { taskId, name: task.name, trigger, owner: task.owner, ...outcome },
      });
    } finally {
      state.running.delete(taskId);
    }
  }
}
