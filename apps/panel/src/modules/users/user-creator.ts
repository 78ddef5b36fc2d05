import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { AppError, emptyPanelPermissions, scopesFor, type PanelPermissionSet } from '@hearth/contract';
import { createUserBodySchema, inviteAcceptBodySchema } from '@hearth/contract/accounts';
import { emailSchema, type SessionResponse } from '@hearth/contract/auth';
import type { Db } from '../../db/connect';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword } from '../../lib/passwords';
import { issueToAppError } from '../../plugins/validation';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { AccountsRepository, type AccountTx, type AccountWrites } from './accounts.repository';
import { PermissionsRepository } from './permissions.repository';
import { UsersRepository, type UserRow } from './users.repository';

/** The fields a new account is created with (the contract's rules for username, e-mail and password). */
export type NewAccount = z.input<typeof createUserBodySchema>;

/**
 * What a new account may do: nothing until someone grants it (self-registered, invited, created by an
 * editor), or everything (the first administrator from the setup link, `hearth user add --admin`).
 */
export type InitialAccess = 'none' | 'admin';

export interface CreateOptions {
  access: InitialAccess;
  /** Logs the new user in: the answer carries a session (registration, setup). */
  session?: boolean;
  /** A single-use token the creation spends in its own transaction; it throws to refuse (setup link). */
  claim?: (q: AccountTx) => Promise<void>;
}

const acceptFields = inviteAcceptBodySchema.pick({ username: true, password: true });

/** The catalogued field error of the first rule broken (the same codes the routes answer). */
function valid<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw issue ? issueToAppError(issue) : new AppError('ErrFieldInvalid');
}

/** A unique index refused the row: the e-mail or the username (ignoring case) is taken. */
function duplicate(err: unknown): never {
  throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
}

function accessSet(access: InitialAccess): PanelPermissionSet {
  return { ...emptyPanelPermissions(), admin: access === 'admin' };
}

export interface UserCreatorDeps {
  accounts: AccountsRepository;
  permissions: PermissionsRepository;
  sessions: SessionsService;
}

/**
 * The one way an account comes to exist (docs/security.md § Accounts): admin create, self-registration, first-run
 * setup, invitations and `hearth user add` all call it and say only what differs — the initial access and
 * whether the newcomer is logged in. It validates against the contract's rules, hashes the password, writes the
 * user row and its permission row in one transaction, and answers a taken e-mail or username with
 * `409 ErrDuplicateUser`. A pending invitation becomes active only through its token (`acceptInvitation`):
 * another path naming its e-mail is a duplicate, as the account may already hold server access.
 */
export class UserCreator {
  constructor(private readonly d: UserCreatorDeps) {}

  create(
    input: NewAccount,
    options: CreateOptions & { session: true },
  ): Promise<{ user: UserRow; session: SessionResponse }>;
  create(input: NewAccount, options: CreateOptions & { session?: false }): Promise<{ user: UserRow }>;
  async create(
    input: NewAccount,
    options: CreateOptions,
  ): Promise<{ user: UserRow; session?: SessionResponse }> {
    const fields = valid(createUserBodySchema, input);
    const passwordHash = await hashPassword(fields.password);
    const user = await this.d.accounts
      .insert({ username: fields.username, email: fields.email, passwordHash }, accessSet(options.access), {
        before: options.claim,
      })
      .catch(duplicate);
    return options.session ? { user, session: await this.signIn(user.id) } : { user };
  }

  /**
   * A pending account for an invitation: no password, a placeholder username, no access; `invitation` writes
   * the invitation's own rows in the same transaction, so there is never an account without its link.
   */
  async createInvited(email: string, invitation: NonNullable<AccountWrites['after']>): Promise<UserRow> {
    const address = valid(emailSchema, email);
    const placeholder = `invited-${randomBytes(6).toString('hex')}`;
    const pending = { username: placeholder, email: address, passwordHash: null, status: 'invited' as const };
    return this.d.accounts.insert(pending, accessSet('none'), { after: invitation }).catch(duplicate);
  }

  /**
   * The invited person chooses username and password and is logged in. `claim` spends the invitation in the
   * same transaction: a taken username rolls the claim back, so the link still works for another try.
   */
  async acceptInvitation(
    userId: string,
    input: { username: string; password: string },
    claim: (q: AccountTx) => Promise<void>,
  ): Promise<SessionResponse> {
    const fields = valid(acceptFields, input);
    const passwordHash = await hashPassword(fields.password);
    await this.d.accounts
      .activate(userId, { username: fields.username, passwordHash }, { before: claim })
      .catch(duplicate);
    return this.signIn(userId);
  }

  private async signIn(userId: string): Promise<SessionResponse> {
    const { token } = await this.d.sessions.issue(userId);
    return { session: token, scopes: scopesFor(await this.d.permissions.panelPermissions(userId)) };
  }
}

/** The creator over one database; the app passes its own sessions service, the CLI needs none of its own. */
export function createUserCreator(
  db: Db,
  sessions = new SessionsService(new SessionsRepository(db)),
): UserCreator {
  const users = new UsersRepository(db);
  const permissions = new PermissionsRepository(db);
  return new UserCreator({ accounts: new AccountsRepository(db, users, permissions), permissions, sessions });
}
