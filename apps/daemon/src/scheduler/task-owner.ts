/**
 * Who may save, trigger and run a task (docs/daemon.md § Tasks, docs/security.md): a task belongs to the user
 * who last saved it and runs every step with that owner's access as it is when the step runs, never with more
 * than the owner could do by hand (`taskOperationNeeds` in the contract). Saving and triggering by hand are
 * refused when the caller's own token could not run every step.
 */
import { AppError, mayRunOperation, type DaemonTokenClaims, type TaskOperation } from '@hearth/contract';
import type { OwnerAccess } from '../panel-link/owner-access';

/** The caller of a task route, from its token: who (`sub`) and what they hold on this server. */
export type TaskCaller = Pick<DaemonTokenClaims, 'sub' | 'admin' | 'perms'>;

/** 403 ErrNoPermission naming the first operation the caller could not run by hand. */
export function assertCallerMayRun(caller: TaskCaller, operations: readonly TaskOperation[]): void {
  const refused = operations.find((op) => !mayRunOperation(op.type, caller));
  if (refused) throw new AppError('ErrNoPermission', { operation: refused.type });
}

/** Why a task stored before tasks had owners does not run, and what to do about it. */
export const NO_OWNER_REASON =
  'the task has no owner (it was stored before tasks had owners); save it again and it runs with its saver’s access';

/** The checks of one run, against the owner's access as the panel tells it at that moment. */
export interface RunChecks {
  /** Before the first step: throws (with the reason) when the task may not run at all. */
  admit(): Promise<void>;
  /** Just before a step: throws when the owner may not run it now. */
  step(op: TaskOperation): Promise<void>;
}

export function ownerChecks(
  ownerAccess: OwnerAccess,
  serverId: string,
  owner: string | null,
  signal: AbortSignal,
): RunChecks {
  // The answer taken when the run was admitted serves its first step; every later step asks again.
  let admitted: Awaited<ReturnType<OwnerAccess>> | null = null;
  const ask = () => {
    if (owner === null) return Promise.reject(new Error(NO_OWNER_REASON));
    return ownerAccess(owner, serverId, signal);
  };
  return {
    admit: async () => {
      admitted = await ask();
    },
    step: async (op) => {
      const access = admitted ?? (await ask());
      admitted = null;
      if (!mayRunOperation(op.type, { admin: access.admin, perms: access.permissions })) {
        throw new Error(`refused: the task’s owner may not run ${op.type} steps on this server`);
      }
    },
  };
}
