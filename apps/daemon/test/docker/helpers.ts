/** Docker test helpers: the engine check, the fake game's definition, and container cleanup. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';

export const IMAGE = 'hearth-test/busybox:1';
export const SOCKET = '/var/run/docker.sock';
export const GAME_SCRIPT = readFileSync(join(import.meta.dirname, 'fixtures', 'game.sh'), 'utf8');
export const docker = new Docker({ socketPath: SOCKET });

/**
 * True when the engine answers and the test image exists. In CI a missing engine is a failure; locally the
 * suite is skipped with the reason printed.
 */
export async function requireDocker(): Promise<boolean> {
  let reason = '';
  try {
    await docker.ping();
    await docker.getImage(IMAGE).inspect();
    return true;
  } catch (err) {
    reason = `${err instanceof Error ? err.message : String(err)} (run: bash .ci/services.sh)`;
  }
  if (process.env.CI === 'true') throw new Error(`CI needs the Docker engine and ${IMAGE}: ${reason}`);
  console.warn(`skipping docker tests: ${reason}`);
  return false;
}

/** The fake game in the test image; `env` overrides docker environment fields, `run` the run section. */
export function dockerGameDefinition(
  env: Record<string, unknown> = {},
  run: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'fake-docker',
    display: 'Fake game (docker)',
    data: { greeting: { type: 'string', value: 'hello', display: 'Greeting', userEdit: true } },
    install: [
      { type: 'writefile', target: 'game.sh', text: GAME_SCRIPT },
      {
        type: 'command',
        commands: ['sh -c "busybox id -u > uid.txt; echo $HOME > home.txt; busybox pwd > pwd.txt"'],
      },
    ],
    run: { command: 'sh game.sh', stop: 'stop', autorecover: true, ...run },
    environment: { type: 'docker', image: IMAGE, networkMode: 'none', ...env },
  };
}

/** Containers labelled with this servers folder (what the daemon under test created). */
export async function containersOf(serversDir: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`org.hearth.servers-dir=${serversDir}`] } });
}

export async function removeContainersOf(serversDir: string): Promise<void> {
  for (const c of await containersOf(serversDir)) await docker.getContainer(c.Id).remove({ force: true });
}
