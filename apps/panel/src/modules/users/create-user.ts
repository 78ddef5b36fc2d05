import { z } from 'zod';
import { AppError, emptyPanelPermissions } from '@hearth/contract';
import { emailSchema, passwordSchema, usernameSchema } from '@hearth/contract/auth';
import type { PanelConfig } from '../../config/schema';
import { connectDatabase } from '../../db/connect';
import { isUniqueViolation } from '../../db/errors';
import { migrateToLatest } from '../../db/migrate';
import { hashPassword } from '../../lib/passwords';
import { issueToAppError } from '../../plugins/validation';
import { PermissionsRepository } from './permissions.repository';
import { UsersRepository } from './users.repository';

const input = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  admin: z.boolean(),
});
export type CreateUserInput = z.input<typeof input>;

/**
 * `hearth user add`: creates an active user straight in the database (migrating first), optionally an
 * administrator. Errors are catalogued AppErrors, so the CLI prints their message.
 */
export async function createUserCommand(config: PanelConfig, raw: CreateUserInput): Promise<{ id: string }> {
  const parsed = input.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw issue ? issueToAppError(issue) : new AppError('ErrFieldInvalid');
  }
  const db = connectDatabase(config.panel.databaseUrl);
  try {
    await migrateToLatest(db.kysely);
    const users = new UsersRepository(db);
    const passwordHash = await hashPassword(parsed.data.password);
    const user = await users
      .insert({ username: parsed.data.username, email: parsed.data.email, passwordHash })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
      });
    await new PermissionsRepository(db).setPanelPermissions(user.id, {
      ...emptyPanelPermissions(),
      admin: parsed.data.admin,
    });
    return { id: user.id };
  } finally {
    await db.close();
  }
}
