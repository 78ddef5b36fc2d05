import type { Command } from 'commander';
import { panelConfigOf } from '../options';
import { readPassword } from '../prompt';

interface AddOptions {
  email: string;
  username: string;
  admin?: boolean;
}

export function registerUserCommand(program: Command): void {
  const user = program.command('user').description('manage users');
  user
    .command('add')
    .description('create a user; the password is prompted (hidden) or read from stdin when piped')
    .requiredOption('--email <email>', 'e-mail address (used to log in)')
    .requiredOption('--username <name>', 'username (3+ characters: letters, digits, _ or -)')
    .option('--admin', 'make the user an administrator', false)
    .action(async (opts: AddOptions, command: Command) => {
      const config = await panelConfigOf(command);
      const { connectDatabase, migrateToLatest, createUserCreator } = await import('@hearth/panel');
      const password = await readPassword('Password: ');
      const db = connectDatabase(config.panel.databaseUrl);
      try {
        await migrateToLatest(db.kysely);
        // The panel's own user creation: the same rules, permission row and duplicate answer as the web's paths.
        const { user: created } = await createUserCreator(db).create(
          { email: opts.email, username: opts.username, password },
          { access: opts.admin === true ? 'admin' : 'none' },
        );
        console.log(`created ${opts.admin ? 'administrator' : 'user'} ${created.username} (${created.id})`);
      } finally {
        await db.close();
      }
    });
}
