/**
 * What each task operation needs from the task's owner — the task rows of the permission table
 * (docs/permissions.md). A task runs every step with its owner's server flags as they are at run time: a
 * step needs exactly the flags doing the same thing by hand needs, and steps that run host commands or fetch
 * from the network (`command`, `download`, the `*dl` installers) are an administrator's power. A type not
 * listed here (an imported template's unknown processor) is admin-only too.
 */
import type { ServerPermission } from './permissions';
import type { KnownProcessorType } from './template-processors';
import type { RuntimeStepType } from './tasks';

/** `'admin'`: panel administrators only; a list: every flag in it (an empty list: any access). */
export type OperationNeed = readonly ServerPermission[] | 'admin';

export const taskOperationNeeds: Record<RuntimeStepType | KnownProcessorType, OperationNeed> = {
  console: ['sendServerConsole'],
  start: ['startServer'],
  stop: ['stopServer'],
  kill: ['stopServer'],
  restart: ['startServer', 'stopServer'],
  sleep: [],
  wait: [],
  backup: ['createServerBackups'],
  writefile: ['putServerFiles'],
  mkdir: ['putServerFiles'],
  move: ['putServerFiles'],
  // Rewrites a file's content by pattern: reading and writing it by hand.
  alterfile: ['viewServerFiles', 'putServerFiles'],
  extract: ['putServerFiles'],
  archive: ['viewServerFiles', 'putServerFiles'],
  command: 'admin',
  download: 'admin',
  mojangdl: 'admin',
  forgedl: 'admin',
  spongeforgedl: 'admin',
  fabricdl: 'admin',
};

/** The need of one operation type; unknown types are admin-only. */
export function operationNeed(type: string): OperationNeed {
  return Object.hasOwn(taskOperationNeeds, type)
    ? taskOperationNeeds[type as keyof typeof taskOperationNeeds]
    : 'admin';
}

/** Whether a holder of `perms` (or an admin) may run an operation of this type. */
export function mayRunOperation(type: string, holder: { admin: boolean; perms: readonly string[] }): boolean {
  if (holder.admin) return true;
  const need = operationNeed(type);
  return need !== 'admin' && need.every((p) => holder.perms.includes(p));
}

/** The operation types a non-admin holding `perms` is offered (the web's operation list). */
export function operationsOffered(holder: { admin: boolean; perms: readonly string[] }): string[] {
  return Object.keys(taskOperationNeeds).filter((type) => mayRunOperation(type, holder));
}
