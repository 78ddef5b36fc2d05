import { AppError, emptyPanelPermissions, panelPermissions, type PanelPermissionSet } from '@hearth/contract';
import type { CreateUserBody } from '@hearth/contract/accounts';
import type { Identity } from '../../app-types';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword } from '../../lib/passwords';
import type { SessionsService } from '../sessions/sessions.service';
import { holdsAllOf } from './account-holdings';
import type { CredentialsRepository } from './credentials.repository';
import type { PermissionsRepository } from './permissions.repository';
import type { UserCreator } from './user-creator';
import type { UserRow, UsersRepository } from './users.repository';
import type { ActivityService } from '../activity/activity.service';
import type { EmailService } from '../email/email.service';
import type { RecoveryCodes } from '../recovery/recovery.service';

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
    private readonly credentials: CredentialsRepository,
    private readonly creator: UserCreator,
    private readonly activity: ActivityService,
    private readonly recovery: RecoveryCodes,
    private readonly email: EmailService,
  ) {}

  page(q: { page: number; limit: number; username?: string }) {
    return this.users.page({ page: q.page, limit: q.limit, search: searchTerm(q.username) });
  }

  async get(id: string): Promise<UserRow> {
    const user = await this.users.findById(id);
    if (!user) throw new AppError('ErrUserNotFound');
    return user;
  }

  /** New users hold no permissions until `PUT /api/users/{id}/perms`; the editor is not logged in as them. */
  async create(input: CreateUserBody): Promise<UserRow> {
    const user = (await this.creator.create(input, { access: 'none' })).user;
    await this.activity.here('user.created', { details: { userId: user.id, username: user.username } });
    return user;
  }

  /**
   * A password change ends all of the user's sessions and revokes their OAuth2 client secrets, in the same
   * transaction. An OAuth2 token may not change its own account this way either (as on `/api/self`).
   */
  async update(
    caller: Identity,
    id: string,
    input: { username?: string; email?: string; password?: string },
  ) {
    const target = await this.guardTarget(caller, id);
    if (caller.via !== 'session' && target.id === caller.userId) throw new AppError('ErrSessionRequired');
    const changes: Partial<UserRow> = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    const changed = Object.keys(changes).concat(input.password === undefined ? [] : ['password']);
    if (input.password === undefined) await this.users.update(target.id, changes).catch(duplicate);
    else {
      const passwordHash = await hashPassword(input.password);
      await this.credentials
        .changePassword(target.id, { ...changes, password_hash: passwordHash })
        .catch(duplicate);
    }
    const action = input.password === undefined ? 'user.changed' : 'account.password.changed';
    await this.activity.here(action, { details: { userId: target.id, changed } });
  }

  /**
   * Turns two-factor off for someone who lost their device (docs/security.md § Two-factor): the same target
   * rules as any change to the account (an admin's only by an admin), recorded and mailed to the owner.
   */
  async resetOtp(caller: Identity, id: string): Promise<void> {
    const target = await this.guardTarget(caller, id);
    await this.users.update(target.id, { otp_secret: null, otp_pending_secret: null, otp_enabled: 0 });
    await this.recovery.clear(target.id);
    await this.activity.here('user.otp.reset', { details: { userId: target.id, username: target.username } });
    this.email.send('otpDisabled', target.email, { username: target.username }, { userId: target.id });
  }

  /** Deleting a user ends their sessions and OAuth2 clients (rows cascade with the user). */
  async delete(caller: Identity, id: string): Promise<void> {
    if (caller.userId === id) throw new AppError('ErrCannotDeleteSelf');
    await this.guardTarget(caller, id);
    await this.sessions.revokeAllFor(id);
    const target = await this.users.findById(id);
    await this.users.delete(id);
    await this.activity.here('user.deleted', { details: { userId: id, username: target?.username ?? '' } });
  }

  async getPermissions(id: string): Promise<PanelPermissionSet & { username: string; email: string }> {
    const user = await this.get(id);
    return { ...(await this.permissions.panelPermissions(id)), username: user.username, email: user.email };
  }

  /**
   * A non-admin may change only flags they hold themselves (granting or revoking), and only on an account
   * that holds nothing they lack (guardTarget). Missing flags mean false.
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
    const granted = panelPermissions.filter((flag) => next[flag] && !current[flag]);
    const removed = panelPermissions.filter((flag) => !next[flag] && current[flag]);
    await this.activity.here('user.permissions.changed', { details: { userId: id, granted, removed } });
  }

  /**
   * Admins may change anyone. A non-admin may change (details, password, permissions) or delete only an account
   * that holds nothing they lack — no admin flag, no panel flag and no server access beyond their own
   * (account-holdings.ts): otherwise setting its password or e-mail would take over more than they hold.
   */
  private async guardTarget(caller: Identity, id: string): Promise<UserRow> {
    const target = await this.get(id);
    if (caller.permissions.admin) return target;
    const [targetPanel, targetServers, editorServers] = await Promise.all([
      this.permissions.panelPermissions(id),
      this.permissions.serverPermissions(id),
      this.permissions.serverPermissions(caller.userId),
    ]);
    const editor = { panel: caller.permissions, servers: editorServers };
    if (!holdsAllOf(editor, { panel: targetPanel, servers: targetServers })) {
      throw new AppError('ErrCannotEditUser');
    }
    return target;
  }
}
