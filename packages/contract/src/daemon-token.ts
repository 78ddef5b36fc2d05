/**
 * Panel → daemon token (ARCHITECTURE §1, §5.3). An ES256 JWT signed by the panel's private key; the daemon
 * holds only the public key. One token names one user, one server (or `*` for node-level admin calls such as
 * creating a server), the server permissions granted to that user, and whether the user is an admin.
 * Tokens live {@link DAEMON_TOKEN_TTL_SECONDS} seconds; the daemon refuses other issuers, audiences (nodes),
 * algorithms and expired tokens.
 */
import { z } from 'zod';
import { serverPermissions } from './permissions';

export const DAEMON_TOKEN_ISSUER = 'hearth-panel';
export const DAEMON_TOKEN_ALGORITHM = 'ES256';
export const DAEMON_TOKEN_TTL_SECONDS = 60;
/** `server` claim for calls not about one server (create, node information). Only admins get it. */
export const DAEMON_TOKEN_ANY_SERVER = '*';

export function daemonTokenAudience(nodeId: string): string {
  return `hearth-daemon:${nodeId}`;
}

export const daemonTokenClaimsSchema = z.object({
  iss: z.literal(DAEMON_TOKEN_ISSUER),
  aud: z.union([z.string(), z.array(z.string())]),
  sub: z.string().min(1),
  server: z.string().min(1),
  perms: z.array(z.enum(serverPermissions)),
  admin: z.boolean(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type DaemonTokenClaims = z.infer<typeof daemonTokenClaimsSchema>;

/** What the panel puts in a token before signing (iss, aud, iat, exp are set by the signer). */
export type DaemonTokenGrant = Pick<DaemonTokenClaims, 'sub' | 'server' | 'perms' | 'admin'>;
