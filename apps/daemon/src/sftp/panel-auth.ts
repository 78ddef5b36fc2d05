/**
 * Asks the panel whether an SFTP login is valid (`POST {panelUrl}/api/nodes/sftp-auth`, HTTP Basic with the
 * node credential `.node_<nodeId>:<sftp.clientSecret>`). The answer carries the user's permissions on the
 * server; anything but 200 is a refusal, and a panel that cannot be reached refuses too (fail closed), as
 * PanelUnreachable so that the limiter does not count an outage against the client (docs/files.md "SFTP").
 */
import { AppError, serverPermissions, type ServerPermission } from '@hearth/contract';
import { nodeAuthorization, panelUrlOf, type PanelLinkSettings } from '../panel-link/node-credential';

export interface SftpGrant {
  userId: string;
  email: string;
  serverId: string;
  permissions: ServerPermission[];
}

export type PanelAuthSettings = PanelLinkSettings;

export type SftpAuthenticator = (username: string, password: string) => Promise<SftpGrant>;

/**
 * The panel gave no answer (connection refused or lost, no reply in time). The login is refused all the same,
 * but it says nothing about the password: the caller must not count it as the client's failure.
 */
export class PanelUnreachable extends Error {
  constructor(readonly reason: string) {
    super(`the panel cannot be reached: ${reason}`);
  }
}

/** `connect ECONNREFUSED …` rather than fetch's bare "fetch failed"; the timeout's own message otherwise. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

export function panelAuthenticator(settings: PanelAuthSettings): SftpAuthenticator {
  const authorization = nodeAuthorization(settings);
  const url = panelUrlOf(settings, '/api/nodes/sftp-auth');
  return async (username, password) => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
        signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new PanelUnreachable(reasonOf(err));
    }
    const body = (await res.json().catch(() => ({}))) as Partial<SftpGrant> & { error?: { code?: string } };
    if (res.status !== 200)
      throw new AppError('ErrInvalidCredentials', { reason: body.error?.code ?? res.status });
    const permissions = (body.permissions ?? []).filter((p): p is ServerPermission =>
      (serverPermissions as readonly string[]).includes(p),
    );
    return {
      userId: String(body.userId),
      email: String(body.email),
      serverId: String(body.serverId),
      permissions,
    };
  };
}
