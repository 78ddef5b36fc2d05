import type { Environment as EnvironmentDefinition } from '@hearth/contract';
import type { DaemonSay } from '@hearth/contract/daemon-messages';
import { DockerEnvironment } from './docker/docker-environment';
import type { DockerServerContext, DockerSettings } from './docker/settings';
import type { Environment, EnvironmentEvents } from './environment';
import { RunSlot } from './holder/run-slot';
import { ProcessEnvironment } from './process-environment';
import { spawnStandard } from './spawn-standard';
import { spawnTty } from './spawn-tty';
import { isolatedSpawner, type IsolationWiring } from '../isolation/spawner';

/** What only the docker environment needs: engine settings and the server's facts, read at each start. */
export interface DockerWiring {
  settings: DockerSettings;
  context: () => DockerServerContext;
}

/** What only standard/tty need: the server's run directory and console, for its holder (docs/daemon.md § Supervision). */
export interface ProcessWiring {
  runDir: string;
  say: DaemonSay;
}

/**
 * Builds the environment a definition asks for. Standard/tty processes go through the isolation decorator
 * (own uid, bubblewrap: docs/security.md "Isolation model"); docker keeps its own model (`docker.user`).
 */
export function createEnvironment(
  definition: EnvironmentDefinition,
  events: EnvironmentEvents,
  docker: DockerWiring,
  isolation: IsolationWiring,
  processes: ProcessWiring,
): Environment {
  switch (definition.type) {
    case 'standard':
    case 'tty': {
      const slot = new RunSlot(processes.runDir);
      const tty = definition.type === 'tty';
      const spawner = isolatedSpawner(tty ? spawnTty(slot) : spawnStandard(slot), tty, isolation);
      return new ProcessEnvironment(definition.type, spawner, events, { slot, say: processes.say });
    }
    case 'docker':
      return new DockerEnvironment(docker.settings, docker.context, events);
  }
}
