/**
 * One run of a task: every step and the outcome go to the server console as daemon lines (PufferPanel's
 * `Running task <name>` / `Task <name> finished`, plus each step and the failure reason). The owner's access is
 * checked before the run and just before each step (task-owner.ts); a refusal ends the run like a failed step.
 */
import type { TaskLastRun, TaskOperation } from '@hearth/contract';
import type { Server } from '../server/server';
import { describeOperation, runOperation } from './steps';
import type { RunChecks } from './task-owner';

export type RunOutcome = Omit<TaskLastRun, 'at'>;

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function executeTask(
  server: Server,
  name: string,
  operations: TaskOperation[],
  signal: AbortSignal,
  checks: RunChecks,
): Promise<RunOutcome> {
  try {
    await checks.admit();
  } catch (err) {
    const reason = signal.aborted ? 'aborted' : reasonOf(err);
    server.say('task.notRun', { name, reason });
    return { result: 'failed', error: `not run: ${reason}` };
  }
  server.say('task.running', { name });
  const total = operations.length;
  for (const [index, op] of operations.entries()) {
    const step = { name, index: index + 1, total, operation: describeOperation(op) };
    server.say('task.step', step);
    try {
      if (signal.aborted) throw new Error('aborted');
      await checks.step(op);
      await runOperation(server, op, signal);
    } catch (err) {
      const reason = signal.aborted ? 'aborted' : reasonOf(err);
      server.say('task.stepFailed', { ...step, reason });
      server.say('task.failed', { name });
      return { result: 'failed', error: `step ${index + 1}: ${reason}` };
    }
  }
  server.say('task.finished', { name });
  return { result: 'success' };
}
