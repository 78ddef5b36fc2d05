/**
 * Asks the panel what a task's owner may do on a server right now (`POST {panelUrl}/api/nodes/access`, node
 * credential). Tasks run with their owner's access as it is when each step runs (docs/daemon.md § Tasks), so
 * every failure here stops the run: a panel that cannot be asked refuses too (fail closed). The thrown error's
 * message is the reason shown in the console and in the task's last run.
 */
import { nodeAccessSchema, type NodeAccess } from '@hearth/contract/node-access';
import { nodeAuthorization, panelUrlOf, type PanelLinkSettings } from './node-credential';

/** `{admin, permissions}` of `userId` on `serverId`, or an error whose message says why not. */
export type OwnerAccess = (userId: string, serverId: string, signal?: AbortSignal) => Promise<NodeAccess>;

export class OwnerAccessError extends Error {}

const NO_LINK =
  'this node has no panel credential (panelUrl and sftp.clientSecret in its config), so the task owner’s ' +
  'access cannot be checked';

function refusal(status: number, code: string | undefined): string {
  if (code === 'ErrUserNotFound') return 'the task’s owner no longer exists or is not active';
  if (code === 'ErrServerNotFound') return 'the task’s owner no longer has access to this server';
  if (status === 401)
    return 'the panel refused this node’s credential, so the task owner’s access is unknown';
  return `the panel could not tell the task owner’s access (${code ? `${status} ${code}` : status})`;
}

export function panelOwnerAccess(settings: PanelLinkSettings | null): OwnerAccess {
  if (!settings) {
    return () => Promise.reject(new OwnerAccessError(NO_LINK));
  }
  const url = panelUrlOf(settings, '/api/nodes/access');
  const authorization = nodeAuthorization(settings);
  return async (userId, serverId, signal) => {
    const timeout = AbortSignal.timeout(settings.timeoutMs ?? 10_000);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ userId, serverId }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new OwnerAccessError(`the panel could not be reached to check the task owner’s access (${why})`);
    }
    const body: unknown = await res.json().catch(() => null);
    if (res.status !== 200) {
      const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
      throw new OwnerAccessError(refusal(res.status, typeof code === 'string' ? code : undefined));
    }
    const parsed = nodeAccessSchema.safeParse(body);
    if (!parsed.success)
      throw new OwnerAccessError('the panel’s answer about the task owner’s access is invalid');
    return parsed.data;
  };
}
