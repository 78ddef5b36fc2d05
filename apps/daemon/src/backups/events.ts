/**
 * `backup-progress` and `backup-done` for a server's sockets (docs/backups.md § Progress). Kept beside the Server
 * rather than in it: the socket session subscribes here when its token holds viewServerBackups.
 */
import type { ServerMessage } from '@hearth/contract';
import type { Server } from '../server/server';

export type BackupEvent = Extract<ServerMessage, { type: 'backup-progress' | 'backup-done' }>;
type Listener = (event: BackupEvent) => void;

const listeners = new WeakMap<Server, Set<Listener>>();

export function onBackupEvent(server: Server, listener: Listener): () => void {
  let set = listeners.get(server);
  if (!set) listeners.set(server, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

export function emitBackupEvent(server: Server, event: BackupEvent): void {
  for (const listener of listeners.get(server) ?? []) listener(event);
}
