/**
 * SFTP login on behalf of a node: the daemon sends the user name and
 * password it received; the route has checked its node credential (node-credential.ts). This checks the
 * account password (argon2), that the server lives on that node, and the user's `sftpServer` flag (admins hold
 * every flag). It answers the user's permissions on that server; the daemon maps reads to viewServerFiles and
 * writes to putServerFiles. Two-factor codes cannot be asked over SFTP (as in PufferPanel).
 */
import { AppError, serverPermissions, type ServerPermission } from '@hearth/contract';
import type { Identity, ServerAccess } from '../../app-types';
import { verifyPassword } from '../../lib/passwords';
import type { Limit, RateLimiter } from '../../lib/rate-limiter';
import type { UsersRepository } from '../users/users.repository';
import type { PermissionsRepository } from '../users/permissions.repository';

export interface SftpAuthDeps {
  users: UsersRepository;
  permissions: PermissionsRepository;
  serverAccess(identity: Identity, serverId: string): Promise<ServerAccess | null>;
  limiter: RateLimiter;
  /** Login attempts per account, and per node (all its users), in a window. */
  perAccount: Limit;
  perNode: Limit;
}

export interface SftpGrant {
  userId: string;
  email: string;
  serverId: string;
  permissions: ServerPermission[];
}

/** `email|serverId`, `email%7CserverId` (PufferPanel v2) or `email#serverId` (v3; OpenSSH-friendly). */
export function parseSftpUsername(username: string): { email: string; serverId: string } {
  const match = /^(.+)(?:\||%7[cC]|#)([^|#%]+)$/.exec(username);
  if (!match?.[1] || !match[2]) throw new AppError('ErrInvalidCredentials');
  return { email: match[1], serverId: match[2] };
}

export class SftpAuthService {
  constructor(private readonly d: SftpAuthDeps) {}

  async login(nodeId: string, username: string, password: string): Promise<SftpGrant> {
    const { email, serverId } = parseSftpUsername(username);
    const key = `sftp:account:${email.toLowerCase()}`;
    // Every attempt counts (a success clears the account's count): a locked account gets no password checks.
    this.d.limiter.hit(key, this.d.perAccount);
    this.d.limiter.hit(`sftp:node:${nodeId}`, this.d.perNode);
    const user = await this.d.users.findByEmail(email);
    const ok = await verifyPassword(user?.status === 'active' ? user.password_hash : null, password);
    if (!user || !ok) throw new AppError('ErrInvalidCredentials');
    const identity = await this.identity(user.id, user.email, user.username);
    const access = await this.d.serverAccess(identity, serverId);
    if (!access || access.nodeId !== nodeId || !access.perms.sftpServer) {
      throw new AppError('ErrMissingScope', { scope: 'servers.sftp', permission: 'sftpServer' });
    }
    this.d.limiter.reset(key);
    const permissions = serverPermissions.filter((p) => access.perms[p]);
    return { userId: user.id, email: user.email, serverId, permissions };
  }

  private async identity(userId: string, email: string, username: string): Promise<Identity> {
    const permissions = await this.d.permissions.panelPermissions(userId);
    return { userId, email, username, permissions, via: 'session', tokenHash: '', clientId: null };
  }
}
