import type { ClientRow } from './clients.repository';

/** A client as listed (never its secret); `revoked` after a password change revoked its secret. */
export function clientView(c: ClientRow) {
  return { client_id: c.id, name: c.name, description: c.description, revoked: c.revoked_at !== null };
}
