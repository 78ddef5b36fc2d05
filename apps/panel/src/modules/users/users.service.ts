import { AppError, emptyPanelPermissions, panelPermissions, type PanelPermissionSet } from '@hearth/contract';
import type { Identity } from '../../app-types';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword } from '../../lib/passwords';
import type { SessionsService } from '../sessions/sessions.service';
import type { PermissionsRepository } from './permissions.repository';
import type { UserRow, UsersRepository } from './users.repository';

const duplicate = (err: unknown) => {
  throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
};

/** `*text*` (PufferPanel's wildcard search) → `text`; the repository matches "contains". */
function searchTerm(raw?: string): string | undefined {
  const term = raw?.replace(/\*/g, '').trim();
  return term ? term : undefined;
}

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly permissions: PermissionsRepository,
    private readonly sessions: SessionsService,
  ) {}

  page(q: { page: number; limit: number; username?: string }) {
    return this.users.page({ page: q.page, limit: q.limit, search: searchTerm(q.username) });
  }

  async get(id: string): Promise<UserRow> {
    const user = await this.users.findById(id);
    if (!user) throw new AppError('ErrUserNotFound');
    return user;
  }

  /** New users hold no permissions until `PUT /api/users/{id}/perms`. */
  async create(input: { username: string; email: string; password: string }): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password);
    const user = await this.users.insert({ ...input, passwordHash }).catch(duplicate);
    await this.permissions.setPanelPermissions(user.id, emptyPanelPermissions());
    return user;
  }

  async update(
    caller: Identity,
    id: string,
    input: { username?: string; email?: string; password?: string },
  ) {
    const target = await this.guardTarget(caller, id);
    const changes: Partial<UserRow> = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    if (input.password !== undefined) changes.password_hash = await hashPassword(input.password);
    await this.users.update(target.id, changes).catch(duplicate);
    if (input.password !== undefined) await this.sessions.revokeAllFor(target.id);
  }

  /** Deleting a user ends their sessions and OAuth2 clients (rows cascade with the user). */
  async delete(caller: Identity, id: string): Promise<void> {
    if (caller.userId === id) throw new AppError('ErrCannotDeleteSelf');
    await this.guardTarget(caller, id);
    await this.sessions.revokeAllFor(id);
    await this.users.delete(id);
  }

  async getPermissions(id: string): Promise<PanelPermissionSet & { username: string; email: string }> {
    const user = await this.get(id);
    return { ...(await this.permissions.panelPermissions(id)), username: user.username, email: user.email };
  }

  /**
   * A non-admin may change only flags they hold themselves (granting or revoking), and may not touch
   * an administrator at all. Missing flags mean false.
   */
  async setPermissions(caller: Identity, id: string, wanted: Partial<PanelPermissionSet>): Promise<void> {
    await this.guardTarget(caller, id);
    const current = await this.permissions.panelPermissions(id);
    const next = emptyPanelPermissions();
    for (const flag of panelPermissions) {
      next[flag] = wanted[flag] === true;
      const held = caller.permissions.admin || caller.permissions[flag];
      if (next[flag] !== current[flag] && !held)
        throw new AppError('ErrCannotGrantPermission', { field: flag });
    }
    await this.permissions.setPanelPermissions(id, next);
  }

  private async guardTarget(caller: Identity, id: string): Promise<UserRow> {
    const target = await this.get(id);
    if (!caller.permissions.admin && (await this.permissions.panelPermissions(id)).admin) {
      throw new AppError('ErrNoPermission');
    }
    return target;
  }
}
