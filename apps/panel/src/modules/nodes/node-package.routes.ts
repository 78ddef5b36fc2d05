/**
 * `GET /api/nodes/{id}/package[?arch=amd64]` — the Debian package for the node's one-step install
 * (docs/operations.md § Remote node), with HTTP Basic `.node_<id>:<secret>`: the node credential of the
 * deployment instructions, which the install steps already hold (node-install-steps.ts). 200 the .deb; 401
 * ErrLoginNotPermitted (no or a wrong credential); 403 ErrNoPermission (the credential of another node); 404
 * ErrNodePackageMissing (no package for that architecture: the message names the folder to copy one into).
 */
import { createReadStream } from 'node:fs';
import { z } from 'zod';
import { AppError } from '@hearth/contract';
import type { App } from '../../app-types';
import type { Services } from '../../services';
import { authenticateNode } from './node-credential';
import { findNodePackage, hostDebianArch, packagesDirOf } from './node-package';

const params = z.strictObject({ id: z.string().min(1).max(64) });
const query = z.strictObject({
  arch: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/)
    .optional(),
});

export function nodePackageRoutes(app: App, services: Services, dataDir: string): void {
  app.get('/api/nodes/:id/package', {
    config: { permission: 'node' },
    schema: { tags: ['nodes'], params, querystring: query },
    handler: async (req, reply) => {
      const nodeId = await authenticateNode(services.nodesRepo, req.headers.authorization);
      if (nodeId !== req.params.id) throw new AppError('ErrNoPermission');
      const found = await findNodePackage(packagesDirOf(dataDir), req.query.arch ?? hostDebianArch());
      return reply
        .header('content-type', 'application/vnd.debian.binary-package')
        .header('content-length', found.size)
        .header('content-disposition', `attachment; filename="${found.name}"`)
        .send(createReadStream(found.path));
    },
  });
}
