/**
 * One run of a task: every step and the outcome go to the server console as daemon lines (PufferPanel's
 * `Running task <name>` / `Task <name> finished`, plus each step and the failure reason).
 */
import type { TaskLastRun, TaskOperation } from '@hearth/contract';
import type { Server } from '../server/server';
import { describeOperation, runOperation } from './steps';

export type RunOutcome = Omit<TaskLastRun, 'at'>;

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function executeTask(
  server: Server,
  name: string,
  operations: TaskOperation[],
  signal: AbortSignal,
): Promise<RunOutcome> {
  server.log(`Running task ${name}`);
  const total = operations.length;
  for (const [index, op] of operations.entries()) {
    const label = `Task ${name} step ${index + 1}/${total} (${describeOperation(op)})`;
    server.log(label);
    try {
      if (signal.aborted) throw new Error('aborted');
      await runOperation(server, op, signal);
    } catch (err) {
      const reason = signal.aborted ? 'aborted' : reasonOf(err);
      server.log(`${label} failed: ${reason}`);
      server.log(`Task ${name} failed`);
      return { result: 'failed', error: `step ${index + 1}: ${reason}` };
    }
  }
  server.log(`Task ${name} finished`);
  return { result: 'success' };
}
