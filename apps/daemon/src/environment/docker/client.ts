/** One Dockerode client per socket path, and the engine check behind `GET /daemon/features`. */
import { createRequire } from 'node:module';
import type Docker from 'dockerode';
import { dockerErrorOf } from './errors';

const clients = new Map<string, Docker>();

/**
 * Dockerode (and its HTTP, tar and protobuf stack) loads when a node first talks to Docker, not at start: most
 * nodes run no docker server (docs/performance.md § Start-up). It stays outside the bundle (scripts/build).
 */
const loadDockerode = () => createRequire(import.meta.url)('dockerode') as typeof Docker;

export function dockerClient(socketPath: string): Docker {
  let client = clients.get(socketPath);
  if (!client) {
    const Dockerode = loadDockerode();
    client = new Dockerode({ socketPath });
    clients.set(socketPath, client);
  }
  return client;
}

export interface DockerAvailability {
  docker: boolean;
  dockerError?: string;
}

/** Pings the engine; never throws (a missing engine or a denied socket is an answer, not a failure). */
export async function dockerAvailability(socketPath: string): Promise<DockerAvailability> {
  try {
    await dockerClient(socketPath).ping();
    return { docker: true };
  } catch (err) {
    return { docker: false, dockerError: dockerErrorOf(err).message };
  }
}
