import { randomBytes } from 'node:crypto';
import {
  AppError,
  DAEMON_TOKEN_ANY_SERVER,
  isAppError,
  serverPermissions,
  type DaemonTokenGrant,
  type ServerPermissionSet,
} from '@hearth/contract';
import type { InviteCreated } from '@hearth/contract/accounts';
import type { CreateServerBody } from '@hearth/contract/servers';
import type { Identity, ServerAccess } from '../../app-types';
import type { NodeLink } from '../../nodes-link/node-link';
import type { NodePlayersCache } from '../../nodes-link/node-players';
import type { NodeStatusCache } from '../../nodes-link/node-status';
import type { InvitesService } from '../invites/invites.service';
import type { NodesRepository } from '../nodes/nodes.repository';
import type { UsersRepository } from '../users/users.repository';
import { definitionForCreate, type TemplateSource } from './server-definition';
import { checkGrant, granterOf } from './server-grants';
import { serverView, variableValue } from './servers.presenter';
import { serverPermsOf, type ServersRepository } from './servers.repository';
import type { SocketRegistry } from './socket-registry';
import type { ActivityService } from '../activity/activity.service';

export interface ServersDeps {
  servers: ServersRepository;
  nodes: NodesRepository;
  users: UsersRepository;
  invites: InvitesService;
  link: NodeLink;
  nodeStatus: NodeStatusCache;
  /** Cached player counts per node (never waited on). */
  players: NodePlayersCache;
  /** Open proxied sockets: closed when a user's access changes or the server goes. */
  sockets: SocketRegistry;
  /** Stored templates: non-admins create servers only from these (server-definition.ts). */
  templates: TemplateSource;
  /** The activity log (docs/activity.md): create, rename, delete and user grants are recorded. */
  activity: ActivityService;
}

function allPerms(): ServerPermissionSet {
  return Object.fromEntries(serverPermissions.map((p) => [p, true])) as ServerPermissionSet;
}

/**
 * Whether the daemon may treat this user as a node admin. Definitions written with such a token are marked
 * `adminEdited` by the daemon, which then honours Docker host bindings — so only panel admins and holders
 * of editServerAdmin get it, never a user merely allowed to create or delete servers.
 */
export function isDaemonAdmin(identity: Identity): boolean {
  return identity.permissions.admin || identity.permissions.editServerAdmin;
}

/** The token grant for a user's call about one server (the daemon re-checks these flags). */
export function grantFor(identity: Identity, access: ServerAccess): DaemonTokenGrant {
  return {
    sub: identity.userId,
    server: access.serverId,
    perms: serverPermissions.filter((p) => access.perms[p]),
    admin: isDaemonAdmin(identity),
  };
}

const ipOf = (value: unknown): string => (typeof value === 'string' ? value : '');

export class ServersService {
  constructor(private readonly d: ServersDeps) {}

  /** Admins hold every flag on every server; others need a permission row on it. */
  async access(identity: Identity, serverId: string): Promise<ServerAccess | null> {
    if (identity.scope && identity.scope.serverId !== serverId) return null;
    const nodeId = await this.d.servers.nodeOf(serverId);
    if (!nodeId) return null;
    if (identity.permissions.admin || identity.scope?.ownerAdmin) {
      return { serverId, nodeId, perms: allPerms() };
    }
    const row = await this.d.servers.grantOf(identity.userId, serverId);
    return row ? { serverId, nodeId, perms: serverPermsOf(row) } : null;
  }

  /** A page of the list: the caller's own servers first, `q` filters by name (docs/api.md § Servers). */
  async page(identity: Identity, query: { page: number; limit: number; q?: string }) {
    const { rows, total } = await this.d.servers.page({
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
      userId: identity.permissions.admin ? undefined : identity.userId,
      ownerId: identity.permissions.admin ? identity.userId : undefined,
      q: query.q || undefined,
    });
    const statuses = await this.d.nodeStatus.statuses(rows.map((r) => r.node_id));
    // One cached summary per node (status, CPU, memory, players), never one call per server.
    const ids = rows.map((r) => ({ id: r.id, nodeId: r.node_id }));
    const players = this.d.players.counts(ids);
    const live = this.d.players.live(ids);
    return {
      servers: rows.map((row) => {
        const status = statuses.get(row.node_id) ?? 'unknown';
        const view = serverView(row);
        const count = status === 'online' ? players.get(row.id) : undefined;
        const state = status === 'online' ? live.get(row.id) : undefined;
        return {
          ...view,
          node: { ...view.node, status },
          ...(status === 'online' ? {} : { status: 'unknown' as const }),
          ...(count ? { players: count } : {}),
          ...(state ? { live: state } : {}),
        };
      }),
      paging: { page: query.page, pageSize: query.limit, maxSize: 100, total },
    };
  }

  async get(identity: Identity, access: ServerAccess, withPerms: boolean) {
    const row = await this.d.servers.find(access.serverId);
    if (!row) throw new AppError('ErrServerNotFound');
    const deleteServer = identity.permissions.admin || identity.permissions.deleteServers;
    const features = await this.d.nodeStatus.knownFeatures(row.node_id);
    const players = this.d.players.counts([{ id: row.id, nodeId: row.node_id }]).get(row.id);
    return {
      server: {
        ...serverView(row),
        ...(players ? { players } : {}),
        features: {
          tasks: features?.tasks === true,
          docker: features?.docker === true,
          environments: features?.environments ?? [],
        },
      },
      ...(withPerms ? { permissions: { ...access.perms, deleteServer } } : {}),
    };
  }

  /**
   * The definition is built (or, for an admin's whole definition, checked) first — server-definition.ts —
   * then panel rows, then the daemon; if the daemon refuses, the rows are removed again.
   */
  async create(identity: Identity, body: CreateServerBody): Promise<{ id: string }> {
    const { definition, type } = await definitionForCreate(body, isDaemonAdmin(identity), this.d.templates);
    const node = await this.d.nodes.findById(body.node);
    if (!node) throw new AppError('ErrNodeInvalid', { field: 'node' });
    const id = randomBytes(4).toString('hex');
    const owners = [identity.userId, ...(await this.userIds(body.users))];
    const port = Number(variableValue(definition.data, 'port'));
    await this.d.servers.insert(
      {
        id,
        name: body.name,
        node_id: node.id,
        ip: ipOf(variableValue(definition.data, 'ip')),
        port: Number.isInteger(port) && port > 0 ? port : null,
        type,
        created_at: Date.now(),
      },
      owners,
    );
    try {
      // A non-admin's token names only the new server (the daemon lets such a token create exactly that
      // id, and marks the definition not admin-edited); admins keep the node-wide token.
      const grant = isDaemonAdmin(identity)
        ? { sub: identity.userId, server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true }
        : { sub: identity.userId, server: id, perms: [...serverPermissions], admin: false };
      await this.d.link.json(node.id, grant, {
        method: 'PUT',
        path: `/daemon/server/${id}`,
        body: JSON.stringify(definition),
      });
    } catch (err) {
      await this.d.servers.delete(id);
      throw err;
    }
    await this.d.activity.here('server.created', {
      serverId: id,
      nodeId: node.id,
      details: { name: body.name, type },
    });
    return { id };
  }

  /** Removes the server from the panel even when its node is unreachable (the answer says so). */
  async delete(identity: Identity, access: ServerAccess): Promise<{ warning?: string }> {
    let warning: string | undefined;
    try {
      // Deleting is a node-admin call on the daemon; the panel has checked deleteServers. It writes no
      // definition, so the admin claim cannot mark anything admin-edited.
      const grant = { ...grantFor(identity, access), admin: true };
      await this.d.link.json(access.nodeId, grant, {
        method: 'DELETE',
        path: `/daemon/server/${access.serverId}`,
      });
    } catch (err) {
      if (!isAppError(err) || !['ErrNodeOffline', 'ErrNodeTimeout', 'ErrServerNotFound'].includes(err.code))
        throw err;
      if (err.code !== 'ErrServerNotFound') warning = `${err.message}: the server's files stay on the node`;
    }
    await this.d.servers.delete(access.serverId);
    this.d.sockets.closeServer(access.serverId);
    await this.d.activity.here('server.deleted', { serverId: access.serverId, nodeId: access.nodeId });
    return warning ? { warning } : {};
  }

  async rename(access: ServerAccess, name: string): Promise<void> {
    await this.d.servers.rename(access.serverId, name);
    await this.d.activity.here('server.renamed', {
      serverId: access.serverId,
      nodeId: access.nodeId,
      details: { name },
    });
  }

  async users(serverId: string) {
    return (await this.d.servers.users(serverId)).map((row) => ({
      email: row.email,
      // An invited account's username is a placeholder until they register: the e-mail names them.
      ...(row.status === 'invited' ? { username: row.email, pending: true } : { username: row.username }),
      ...serverPermsOf(row),
    }));
  }

  /**
   * Gives a user exactly `flags` on the server (an unknown e-mail is invited). A non-admin granter is held to
   * server-grants.ts: only flags they hold, and never over a user holding more than they do.
   */
  async setUser(
    identity: Identity,
    access: ServerAccess,
    email: string,
    flags: Partial<ServerPermissionSet>,
  ): Promise<{ invitation?: InviteCreated }> {
    const perms = Object.fromEntries(
      serverPermissions.map((p) => [p, flags[p] === true]),
    ) as ServerPermissionSet;
    const known = await this.d.users.findByEmail(email);
    // Checked before an unknown e-mail is invited: a refused grant leaves nothing behind.
    checkGrant(granterOf(identity, access), await this.holding(known?.id, access.serverId), perms);
    const invitation = known ? undefined : await this.invite(email);
    const userId = known ? known.id : invitation?.id;
    await this.d.servers.setUser(userId ?? '', access.serverId, perms);
    if (userId) this.d.sockets.closeUser(access.serverId, userId);
    const granted = serverPermissions.filter((p) => perms[p]);
    const details = { email: email.toLowerCase(), userId: userId ?? null, granted };
    await this.d.activity.here('server.users.changed', { serverId: access.serverId, details });
    return invitation ? { invitation } : {};
  }

  /** The invitation without its token: the link carries it, once, to whoever granted (docs/security.md). */
  private async invite(email: string): Promise<InviteCreated> {
    const { id, expiresAt, link, mail } = await this.d.invites.invite(email.toLowerCase());
    return { id, email: email.toLowerCase(), expiresAt, link, mail };
  }

  async removeUser(identity: Identity, access: ServerAccess, email: string): Promise<void> {
    const user = await this.d.users.findByEmail(email);
    if (!user) throw new AppError('ErrUserNotFound');
    checkGrant(granterOf(identity, access), await this.holding(user.id, access.serverId), null);
    await this.d.servers.removeUser(user.id, access.serverId);
    this.d.sockets.closeUser(access.serverId, user.id);
    const details = { email: user.email, userId: user.id, granted: [] };
    await this.d.activity.here('server.users.changed', { serverId: access.serverId, details });
  }

  /** What a user holds on a server now: every flag for an administrator, null without access. */
  private async holding(userId: string | undefined, serverId: string): Promise<ServerPermissionSet | null> {
    if (!userId) return null;
    const { admin, row } = await this.d.servers.holdingOf(userId, serverId);
    if (admin) return allPerms();
    return row ? serverPermsOf(row) : null;
  }

  /** Known e-mails map to their accounts; unknown ones are invited (accounts issue). */
  private async userIds(emails: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const email of emails) {
      const user = await this.d.users.findByEmail(email);
      ids.push(user ? user.id : (await this.d.invites.invite(email.toLowerCase())).id);
    }
    return ids;
  }
}
