/**
 * `POST /api/nodes/sftp-auth` — called by daemons only, with HTTP Basic `.node_<id>:<secret>` (the node
 * credential from the deployment instructions) and `{username, password}` as the SFTP client sent them.
 * 200 `{userId, email, serverId, permissions}`; 401 ErrLoginNotPermitted (node credential), 400
 * ErrInvalidCredentials (user or password), 403 ErrMissingScope (no sftpServer on that server, or the server
 * is on another node), 429 ErrRateLimited. Daemons re-ask while a session is open (docs/api.md).
 */
import { z } from 'zod';
import { AppError } from '@hearth/contract';
import type { App } from '../../app-types';
import { RateLimiter } from '../../lib/rate-limiter';
import type { Services } from '../../services';
import { authenticateNode } from './node-credential';
import { SftpAuthService } from './sftp-auth.service';

const bodySchema = z.object({ username: z.string().min(1).max(400), password: z.string().max(1024) });

export function sftpAuthRoutes(app: App, services: Services): void {
  const auth = new SftpAuthService({
    users: services.users,
    permissions: services.permissions,
    serverAccess: services.serverAccess,
    limiter: new RateLimiter(),
    perAccount: { max: 10, windowMs: 60_000 },
    perNode: { max: 300, windowMs: 60_000 },
  });
  app.post(
    '/api/nodes/sftp-auth',
    { config: { permission: 'node' }, schema: { tags: ['nodes'] } },
    async (req) => {
      const nodeId = await authenticateNode(services.nodesRepo, req.headers.authorization);
      const parsed = bodySchema.safeParse(req.body);
      if (!parsed.success) throw new AppError('ErrFieldInvalid', { field: 'username' });
      return auth.login(nodeId, parsed.data.username, parsed.data.password);
    },
  );
}
