/**
 * Asks the panel whether an SFTP login is valid (`POST {panelUrl}/api/nodes/sftp-auth`, HTTP Basic with the
 * node credential `.node_<nodeId>:<sftp.clientSecret>`). The answer carries the user's permissions on the
 * server; anything but 200 is a refusal, and a panel that cannot be reached refuses too (fail closed).
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

export function panelAuthenticator(settings: PanelAuthSettings): SftpAuthenticator {
  const authorization = nodeAuthorization(settings);
  const url = panelUrlOf(settings, '/api/nodes/sftp-auth');
  return async (username, password) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
    });
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
