/**
 * `GET /proxy/daemon/socket/{id}` (websocket; SPEC §7 Socket). The one authorization hook runs on the upgrade
 * request (session cookie or bearer): no access → 404, no viewServerConsole → 403 (the daemon's own rule for
 * opening its socket), before any upgrade. Then the daemon socket is opened and relayed (socket-proxy.ts).
 */
import { z } from 'zod';
import { isAppError } from '@hearth/contract';
import type { App } from '../../app-types';
import { currentServer, currentUser, identityOf, tokenOf, type AuthDeps } from '../../plugins/auth';
import type { NodeLink } from '../../nodes-link/node-link';
import { SocketRelay } from './socket-proxy';
import { SOCKET_CLOSE, type SocketRegistry } from './socket-registry';

export interface SocketRouteDeps {
  link: NodeLink;
  registry: SocketRegistry;
  auth: AuthDeps;
}

export function socketRoutes(app: App, deps: SocketRouteDeps): void {
  app.get(
    '/proxy/daemon/socket/:id',
    {
      websocket: true,
      config: { permission: 'authenticated', server: 'viewServerConsole' },
      schema: { tags: ['proxy'], params: z.strictObject({ id: z.string().min(1).max(64) }) },
    },
    (socket, req) => {
      const identity = currentUser(req);
      const access = currentServer(req);
      const token = tokenOf(req);
      const reauthorize = async () => {
        const now = await identityOf(token, deps.auth);
        const nowAccess = now ? await deps.auth.serverAccess(now, access.serverId) : null;
        return now && nowAccess ? { identity: now, access: nowAccess } : null;
      };
      let unregister = () => {};
      const relay = new SocketRelay(socket, identity, access, {
        link: deps.link,
        reauthorize,
        onEnd: () => unregister(),
        log: req.log,
      });
      unregister = deps.registry.add(access.serverId, identity.userId, relay);
      relay.start().catch((err: unknown) => {
        req.log.warn({ err }, 'daemon socket could not be opened');
        const reason = isAppError(err) ? err.code : 'ErrNodeOffline';
        relay.close(SOCKET_CLOSE.nodeLost, reason);
      });
    },
  );
}
