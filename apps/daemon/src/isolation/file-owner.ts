/**
 * Who owns a server's files (docs/security.md "Isolation model"): under a root daemon a standard/tty server's
 * own ids, a docker server's container user (`docker.user`, its own model: docs/daemon.md § Docker); otherwise
 * the daemon (null: nothing is re-owned).
 */
import type { EnvironmentType } from '@hearth/contract';
import { containerUserOf } from '../environment/docker/user';
import type { FileOwner } from '../filesystem/fd-walk';
import type { ServerIds } from './ids';
import type { IsolationRuntime } from './runtime';

export function fileOwnerOf(
  environment: EnvironmentType,
  runAs: ServerIds | null,
  runtime: IsolationRuntime,
  dockerUser: string,
): FileOwner | null {
  if (!runtime.switchIds) return null;
  if (environment !== 'docker') return runAs;
  const user = containerUserOf(dockerUser);
  return user.uid === 0 ? null : user;
}
