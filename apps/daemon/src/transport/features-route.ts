/** `GET /daemon/features` (admin token): what this node can run, for the panel's Add Server screen. */
import { arch, platform } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { AppError, type DaemonFeatures } from '@hearth/contract';
import { dockerAvailability } from '../environment/docker/client';
import { bearerOf } from './token';
import type { TransportContext } from './context';

export function featuresRoute(app: FastifyInstance, ctx: TransportContext): void {
  app.get('/daemon/features', async (request): Promise<DaemonFeatures> => {
    const claims = await ctx.verifier.verify(bearerOf(request.headers.authorization));
    if (!claims.admin) throw new AppError('ErrMissingScope', { scope: 'nodes.view' });
    const docker = await dockerAvailability(ctx.config.docker.socketPath);
    const environments: DaemonFeatures['environments'] = ['standard', 'tty'];
    if (docker.docker) environments.push('docker');
    return { ...docker, environments, os: platform(), arch: arch(), tasks: true };
  });
}
