/** Finding, replacing and removing the daemon's containers (by name and ownership labels). */
import type Docker from 'dockerode';
import { AppError } from '@hearth/contract';
import { dockerErrorOf } from './errors';
import { LABEL_ROLE, LABEL_SERVER, LABEL_SERVERS_DIR } from './settings';

type Inspect = Awaited<ReturnType<Docker.Container['inspect']>>;

function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode;
}

/** The container's details, or null when there is none by that name. */
export async function inspectByName(docker: Docker, name: string): Promise<Inspect | null> {
  try {
    return await docker.getContainer(name).inspect();
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw dockerErrorOf(err);
  }
}

export function isOurs(info: Inspect, serversDir: string): boolean {
  return info.Config.Labels?.[LABEL_SERVERS_DIR] === serversDir;
}

export async function removeContainer(container: Docker.Container): Promise<void> {
  try {
    await container.remove({ force: true, v: true });
  } catch (err) {
    // 404: already gone; 409: removal already in progress (the engine finishes it)
    if (statusOf(err) !== 404 && statusOf(err) !== 409) throw dockerErrorOf(err);
  }
}

/** Clears the way for a new container named `name`; refuses to touch another daemon's container. */
export async function removeStale(docker: Docker, name: string, serversDir: string): Promise<void> {
  const info = await inspectByName(docker, name);
  if (!info) return;
  if (!isOurs(info, serversDir)) {
    throw new AppError('ErrServerStartFailed', { reason: `container ${name} belongs to another daemon` });
  }
  await removeContainer(docker.getContainer(info.Id));
}

/** Containers of this daemon (by servers-dir label) whose server is not in `known`: removed. */
export async function removeOrphans(
  docker: Docker,
  serversDir: string,
  known: Set<string>,
): Promise<string[]> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${LABEL_SERVERS_DIR}=${serversDir}`] },
  });
  const orphans = list.filter((c) => !known.has(c.Labels[LABEL_SERVER] ?? ''));
  await Promise.all(orphans.map((c) => removeContainer(docker.getContainer(c.Id))));
  return orphans.map((c) => `${c.Labels[LABEL_SERVER] ?? '?'} (${c.Labels[LABEL_ROLE] ?? '?'})`);
}
