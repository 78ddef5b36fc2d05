/** What the docker environment needs from the daemon configuration and the server it belongs to. */
import type { Template } from '@hearth/contract';
import type { DaemonSay } from '@hearth/contract/daemon-messages';
import type { Substitutions } from '../../server/variables';

/** The server folder is mounted here in every container and is the default working directory. */
export const CONTAINER_ROOT = '/home/container';

/** Labels on every container the daemon creates: who owns it (recovery and orphan removal read them). */
export const LABEL_SERVER = 'org.hearth.server';
export const LABEL_SERVERS_DIR = 'org.hearth.servers-dir';
export const LABEL_ROLE = 'org.hearth.role';

export interface DockerSettings {
  socketPath: string;
  /** `uid:gid`; empty = automatic (see user.ts). */
  user: string;
  /** Absolute servers folder; labels containers so two daemons on one engine never touch each other's. */
  serversDir: string;
}

/** The server-side facts a container is built from, read fresh at every start. */
export interface DockerServerContext {
  serverId: string;
  /** Absolute host path of the server folder. */
  root: string;
  definition: Template;
  substitutions: Substitutions;
  /** True when the definition was last written by an admin: only then are `bindings` honoured. */
  adminEdited: boolean;
  /** A `[DAEMON]` console line, by code (contract daemon-messages). */
  say: DaemonSay;
}

export function containerNameOf(serverId: string): string {
  return `hearth-${serverId}`;
}
