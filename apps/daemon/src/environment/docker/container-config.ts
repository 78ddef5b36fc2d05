/**
 * The Docker create options for a server's container (main or install): image, command as entrypoint,
 * server folder mounted at {@link CONTAINER_ROOT} and used as working directory, user, network, ports,
 * limits, labels. Pure: every input is given, nothing is asked of the engine.
 */
import { posix, relative } from 'node:path';
import type { ContainerCreateOptions } from 'dockerode';
import { AppError, type Environment as EnvironmentDefinition } from '@hearth/contract';
import { substitute } from '../../server/variables';
import type { ProcessSpec } from '../environment';
import { dockerPorts, parsePortBinding } from './port-bindings';
import {
  CONTAINER_ROOT,
  LABEL_ROLE,
  LABEL_SERVER,
  LABEL_SERVERS_DIR,
  type DockerServerContext,
} from './settings';
import type { ContainerUser } from './user';
import { adminOnlySubstitutions, bindsOf } from './volume-bindings';

export type DockerDefinition = Extract<EnvironmentDefinition, { type: 'docker' }>;
export type ContainerRole = 'main' | 'install';

export function dockerDefinitionOf(ctx: DockerServerContext): DockerDefinition {
  const env = ctx.definition.environment;
  if (env.type !== 'docker')
    throw new AppError('ErrServerStartFailed', { reason: 'not a docker definition' });
  return env;
}

export function imageOf(ctx: DockerServerContext): string {
  return substitute(dockerDefinitionOf(ctx).image, ctx.substitutions).trim();
}

function networkModeOf(env: DockerDefinition): string {
  const name = env.networkName?.trim();
  if (env.networkMode === 'host' || env.networkMode === 'none') return env.networkMode;
  if (env.networkMode === 'bridge') return name || 'bridge';
  if (!name) {
    const reason = `networkMode ${env.networkMode} needs a networkName`;
    throw new AppError('ErrInvalidDefinition', { field: 'environment.networkName', reason });
  }
  return name;
}

/** A host path inside the server folder, as the container sees it. */
export function containerPathOf(root: string, hostPath: string): string {
  const rel = relative(root, hostPath).split('\\').join('/');
  return rel ? posix.join(CONTAINER_ROOT, rel) : CONTAINER_ROOT;
}

function resourcesOf(env: DockerDefinition): ContainerCreateOptions['HostConfig'] {
  const r = env.resources ?? {};
  return {
    ...(r.memory ? { Memory: r.memory, MemorySwap: r.memory } : {}),
    ...(r.cpus ? { NanoCpus: Math.round(r.cpus * 1e9) } : {}),
    ...(r.cpuShares ? { CpuShares: r.cpuShares } : {}),
    ...(r.pidsLimit ? { PidsLimit: r.pidsLimit } : {}),
  };
}

export function containerConfig(
  ctx: DockerServerContext,
  spec: ProcessSpec,
  opts: { name: string; role: ContainerRole; user: ContainerUser; serversDir: string },
): ContainerCreateOptions {
  const env = dockerDefinitionOf(ctx);
  const networkMode = networkModeOf(env);
  const ports =
    networkMode === 'host' || networkMode === 'none' || opts.role === 'install' ? [] : env.portBindings;
  const { exposed, portBindings } = dockerPorts(
    ports.map((p) => parsePortBinding(substitute(p, ctx.substitutions))),
  );
  const variables = { ...spec.env, HOME: CONTAINER_ROOT, TERM: 'xterm-256color' };
  const values = adminOnlySubstitutions(ctx.definition, ctx.substitutions);
  return {
    name: opts.name,
    Image: imageOf(ctx),
    Entrypoint: [spec.command],
    Cmd: spec.args,
    WorkingDir: containerPathOf(ctx.root, spec.cwd),
    Env: Object.entries(variables).map(([k, v]) => `${k}=${v}`),
    User: `${opts.user.uid}:${opts.user.gid}`,
    Tty: true,
    OpenStdin: opts.role === 'main',
    StdinOnce: false,
    AttachStdin: opts.role === 'main',
    AttachStdout: true,
    AttachStderr: true,
    ExposedPorts: exposed,
    Labels: { [LABEL_SERVER]: ctx.serverId, [LABEL_SERVERS_DIR]: opts.serversDir, [LABEL_ROLE]: opts.role },
    HostConfig: {
      Binds: bindsOf(ctx.root, env.bindings, values, ctx.adminEdited),
      PortBindings: portBindings,
      NetworkMode: networkMode,
      // docker-init as PID 1 forwards the stop signal to the game and reaps zombies.
      Init: true,
      ...resourcesOf(env),
    },
  };
}
