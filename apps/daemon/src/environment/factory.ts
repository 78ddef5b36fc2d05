import type { Environment as EnvironmentDefinition } from '@hearth/contract';
import { DockerEnvironment } from './docker/docker-environment';
import type { DockerServerContext, DockerSettings } from './docker/settings';
import type { Environment, EnvironmentEvents } from './environment';
import { ProcessEnvironment } from './process-environment';
import { spawnStandard } from './spawn-standard';
import { spawnTty } from './spawn-tty';

/** What only the docker environment needs: engine settings and the server's facts, read at each start. */
export interface DockerWiring {
  settings: DockerSettings;
  context: () => DockerServerContext;
}

/** Builds the environment a definition asks for. */
export function createEnvironment(
  definition: EnvironmentDefinition,
  events: EnvironmentEvents,
  docker: DockerWiring,
): Environment {
  switch (definition.type) {
    case 'standard':
      return new ProcessEnvironment('standard', spawnStandard, events);
    case 'tty':
      return new ProcessEnvironment('tty', spawnTty, events);
    case 'docker':
      return new DockerEnvironment(docker.settings, docker.context, events);
  }
}
