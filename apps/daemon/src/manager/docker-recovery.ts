/**
 * Daemon boot, docker part: servers whose container outlived the previous daemon (killed, crashed) are
 * re-attached — console and stats resume, no second container — and containers of this daemon whose server
 * no longer exists are removed. Docker being unavailable is logged, never fatal.
 */
import type { Logger } from 'pino';
import { dockerClient } from '../environment/docker/client';
import { removeOrphans } from '../environment/docker/containers';
import type { DockerSettings } from '../environment/docker/settings';
import type { Server } from '../server/server';
import { hasLabelledContainers } from './docker-labelled';

export async function recoverContainers(
  servers: Server[],
  settings: DockerSettings,
  logger: Logger,
): Promise<void> {
  const docker = servers.filter((s) => s.getDefinition().environment.type === 'docker');
  for (const server of docker) {
    try {
      if (await server.recover()) logger.info({ id: server.id }, 're-attached to running container');
    } catch (err) {
      logger.warn({ err, id: server.id }, 'cannot re-attach to the server container');
    }
  }
  // Only a node with docker servers, or with containers left behind, loads the Docker client at boot.
  if (docker.length === 0 && !(await hasLabelledContainers(settings.socketPath, settings.serversDir))) return;
  try {
    const known = new Set(servers.map((s) => s.id));
    const removed = await removeOrphans(dockerClient(settings.socketPath), settings.serversDir, known);
    if (removed.length > 0) logger.info({ removed }, 'removed containers of deleted servers');
  } catch (err) {
    logger.debug({ err }, 'docker not reachable; no container cleanup');
  }
}
