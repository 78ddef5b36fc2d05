/**
 * `POST /api/nodes/access` — called by daemons only, with the node credential (node-credential.ts), body
 * `{userId, serverId}`. 200 `{admin, permissions}`; 401 ErrLoginNotPermitted (node credential); 400
 * ErrFieldInvalid (body); 404 ErrUserNotFound (no such active user); 404 ErrServerNotFound (no such server,
 * no access to it, or it lives on another node). See docs/api.md "Node-only routes".
 */
import { AppError } from '@hearth/contract';
import { nodeAccessRequestSchema, nodeAccessSchema } from '@hearth/contract/node-access';
import type { App } from '../../app-types';
import type { Services } from '../../services';
import { NodeAccessService } from './access.service';
import { authenticateNode } from './node-credential';

export function nodeAccessRoutes(app: App, services: Services): void {
  const access = new NodeAccessService({
    users: services.users,
    permissions: services.permissions,
    serverAccess: services.serverAccess,
  });
  app.post(
    '/api/nodes/access',
    // The body is read by hand after the node credential: an unknown caller learns nothing from a 400.
    { config: { permission: 'node' }, schema: { tags: ['nodes'], response: { 200: nodeAccessSchema } } },
    async (req) => {
      const nodeId = await authenticateNode(services.nodesRepo, req.headers.authorization);
      const parsed = nodeAccessRequestSchema.safeParse(req.body);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.map(String).join('.') || 'body';
        throw new AppError('ErrFieldInvalid', { field });
      }
      return access.access(nodeId, parsed.data.userId, parsed.data.serverId);
    },
  );
}
