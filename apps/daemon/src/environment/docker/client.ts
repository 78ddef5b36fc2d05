/** One Dockerode client per socket path, and the engine check behind `GET /daemon/features`. */
import Docker from 'dockerode';
import { dockerErrorOf } from './errors';

const clients = new Map<string, Docker>();

export function dockerClient(socketPath: string): Docker {
  let client = clients.get(socketPath);
  if (!client) {
    client = new Docker({ socketPath });
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
