/**
 * Asks the panel whether an SFTP login is valid (`POST {panelUrl}/api/nodes/sftp-auth`, HTTP Basic with the
 * node credential `.node_<nodeId>:<sftp.clientSecret>`). The answer carries the user's permissions on the
 * server; anything but 200 is a refusal, and a panel that cannot be reached refuses too (fail closed).
 */
import { AppError, serverPermissions, type ServerPermission } from '@hearth/contract';

export interface SftpGrant {
  userId: string;
  email: string;
  serverId: string;
  permissions: ServerPermission[];
}

export interface PanelAuthSettings {
  panelUrl: string;
  nodeId: string;
  clientSecret: string;
  timeoutMs?: number;
}

export type SftpAuthenticator = (username: string, password: string) => Promise<SftpGrant>;

export function panelAuthenticator(settings: PanelAuthSettings): SftpAuthenticator {
  const basic = Buffer.from(`.node_${settings.nodeId}:${settings.clientSecret}`).toString('base64');
  const url = new URL('/api/nodes/sftp-auth', settings.panelUrl).toString();
  return async (username, password) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
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
