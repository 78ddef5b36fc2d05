/**
 * `GET /proxy/daemon/socket/{id}` (websocket). The one authorization hook runs on the upgrade
 * request (session cookie or bearer): no access → 404, no viewServerConsole → 403 (stricter than the daemon,
 * which opens its socket for any access: docs/daemon.md § Socket), before any upgrade; the same hook refuses an upgrade whose Origin is another site's
 * (plugins/origin.ts). Then the per-user and per-server caps (socket-registry.ts) — over them the socket is
 * closed at once with 4429 `ErrSocketLimit`, a reason the browser can read (a refused upgrade's status it cannot)
 * — and the daemon socket is opened and relayed (socket-proxy.ts).
 */
import { z } from 'zod';
import { isAppError } from '@hearth/contract';
import type { App } from '../../app-types';
import { currentServer, currentUser, identityOf, tokenOf, type AuthDeps } from '../../plugins/auth';
import type { NodeLink } from '../../nodes-link/node-link';
import { SocketRelay } from './socket-proxy';
import { SOCKET_CLOSE, type SocketRegistry } from './socket-registry';
import { recordSocketFrame } from '../activity/socket-recorder';
import type { ActivityService } from '../activity/activity.service';

export interface SocketRouteDeps {
  link: NodeLink;
  registry: SocketRegistry;
  auth: AuthDeps;
  activity: ActivityService;
  /** Whether the server is being moved between nodes (messages that change it are refused meanwhile). */
  moving?: (serverId: string) => boolean;
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
        onAccepted: (text, who, where) =>
          recordSocketFrame(deps.activity, text, { identity: who, access: where, ip: req.ip }),
        log: req.log,
        moving: deps.moving,
      });
      try {
        unregister = deps.registry.add(access.serverId, identity.userId, relay);
      } catch (err) {
        req.log.info({ userId: identity.userId, serverId: access.serverId }, 'socket cap reached');
        return relay.close(SOCKET_CLOSE.socketLimit, isAppError(err) ? err.code : 'ErrSocketLimit');
      }
      relay.start().catch((err: unknown) => {
        req.log.warn({ err }, 'daemon socket could not be opened');
        const reason = isAppError(err) ? err.code : 'ErrNodeOffline';
        relay.close(reason === 'ErrSocketLimit' ? SOCKET_CLOSE.socketLimit : SOCKET_CLOSE.nodeLost, reason);
      });
    },
  );
}
