/** `GET /daemon/features` (table row `features`: a node-admin token): what this node can run, for Add Server. */
import { arch, platform } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { DaemonFeatures } from '@hearth/contract';
import { dockerAvailability } from '../environment/docker/client';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

export function featuresRoute(app: FastifyInstance, ctx: TransportContext): void {
  daemonRoute(app, ctx, 'features', async (): Promise<DaemonFeatures> => {
    const docker = await dockerAvailability(ctx.config.docker.socketPath);
    const environments: DaemonFeatures['environments'] = ['standard', 'tty'];
    if (docker.docker) environments.push('docker');
    const isolation = ctx.manager.isolation().mode; // docs/security.md "Isolation model"
    return { ...docker, environments, os: platform(), arch: arch(), tasks: true, isolation };
  });
}
