/**
 * A user's current access to a server, answered to the node that holds it (docs/api.md "Node-only routes").
 * Daemons ask before each step of a task, which runs with its owner's access (docs/daemon.md § Tasks): an
 * owner who is gone, disabled or without access to the server gets 404, and the task does not run.
 */
import { AppError, serverPermissions } from '@hearth/contract';
import type { NodeAccess } from '@hearth/contract/node-access';
import type { Identity, ServerAccess } from '../../app-types';
import { isDaemonAdmin } from '../servers/servers.service';
import type { PermissionsRepository } from '../users/permissions.repository';
import type { UsersRepository } from '../users/users.repository';

export interface NodeAccessDeps {
  users: UsersRepository;
  permissions: PermissionsRepository;
  serverAccess(identity: Identity, serverId: string): Promise<ServerAccess | null>;
}

export class NodeAccessService {
  constructor(private readonly d: NodeAccessDeps) {}

  async access(nodeId: string, userId: string, serverId: string): Promise<NodeAccess> {
    const user = await this.d.users.findById(userId);
    if (user?.status !== 'active') throw new AppError('ErrUserNotFound');
    const identity: Identity = {
      userId: user.id,
      email: user.email,
      username: user.username,
      permissions: await this.d.permissions.panelPermissions(user.id),
      via: 'session',
      tokenHash: '',
      clientId: null,
    };
    const access = await this.d.serverAccess(identity, serverId);
    // Another node's server is answered like a missing one: a node learns nothing about servers it lacks.
    if (!access || access.nodeId !== nodeId) throw new AppError('ErrServerNotFound');
    return {
      // The same rule as the tokens the panel signs for this user (servers.service.ts grantFor).
      admin: isDaemonAdmin(identity),
      permissions: serverPermissions.filter((p) => access.perms[p]),
    };
  }
}
