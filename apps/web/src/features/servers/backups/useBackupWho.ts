import { useQuery } from '@tanstack/react-query';
import { selfQuery } from '../../account/api';
import { userQuery } from '../../users/api';

/**
 * Who asked for a backup (the snapshot's `by`, a user id), by name and e-mail where the caller may already read
 * them: the caller's own account (`GET /api/self`), or any account for an administrator (`GET /api/users/{id}`,
 * which only administrators may call). Anyone else sees the id, so a server's users never learn each other's
 * e-mail addresses through the backup list (docs/backups.md § In the browser). A deleted account stays its id.
 */
export function useBackupWho(id: string | null, admin: boolean): string | null {
  const self = useQuery({ ...selfQuery, enabled: id !== null });
  const mine = id !== null && self.data?.id === id;
  const user = useQuery({ ...userQuery(id ?? ''), enabled: id !== null && admin && !mine, retry: false });
  if (id === null) return null;
  const known = mine ? self.data : user.data;
  return known ? `${known.username} (${known.email})` : id;
}
