/**
 * The `docker` environment: the same contract as standard/tty (environment.ts), with a container per run.
 * start = pull if needed + create `hearth-<id>` + attach (TTY) + start; stop = command on stdin or the signal
 * through the engine; kill = engine kill; stats = engine stats; execute = a short-lived `hearth-<id>-install`
 * container of the same image; `adopt` re-attaches to a container still running after a daemon restart.
 * A container is removed when it ends, before `exit` is emitted, so a stopped server has none.
 */
import type Docker from 'dockerode';
import type { StopSetting } from '@hearth/contract';
import type { Environment, EnvironmentEvents, ExitState, ProcessSpec, ProcessStats } from '../environment';
import { OneRunEnvironment } from '../one-run-environment';
import { dockerClient } from './client';
import { containerConfig, dockerDefinitionOf, imageOf, type ContainerRole } from './container-config';
import { inspectByName, isOurs, removeContainer, removeStale } from './containers';
import { dockerErrorOf } from './errors';
import { ensureImage } from './image';
import { openSession, type Session } from './session';
import { containerNameOf, type DockerServerContext, type DockerSettings } from './settings';
import { containerStats, type CpuSample } from './stats';
import { containerUserOf, handOver } from './user';

interface Current {
  session: Session;
  container: Docker.Container;
  main: boolean;
  /** Resolves once the container ended and was removed (and, for the main one, `exit` was emitted). */
  finished: Promise<ExitState>;
}

const LOST: ExitState = { code: null, signal: 'SIGKILL' };
const RECENT_LINES = 100;

export class DockerEnvironment extends OneRunEnvironment<Current, CpuSample> implements Environment {
  readonly type = 'docker' as const;
  private readonly docker: Docker;

  constructor(
    private readonly settings: DockerSettings,
    private readonly context: () => DockerServerContext,
    private readonly events: EnvironmentEvents,
  ) {
    super();
    this.docker = dockerClient(settings.socketPath);
  }

  private async run(spec: ProcessSpec, role: ContainerRole): Promise<Current> {
    this.assertCanRun();
    const ctx = this.context();
    const name = role === 'main' ? containerNameOf(ctx.serverId) : `${containerNameOf(ctx.serverId)}-install`;
    const user = containerUserOf(this.settings.user);
    const config = containerConfig(ctx, spec, { name, role, user, serversDir: this.settings.serversDir });
    const env = dockerDefinitionOf(ctx);
    if (!ctx.adminEdited && Object.keys(env.bindings).length > 0) {
      ctx.say('docker.bindingsIgnored', {});
    }
    if (role === 'main' && env.networkMode === 'host' && env.portBindings.length > 0) {
      ctx.say('docker.portsIgnored', {});
    }
    const image = imageOf(ctx);
    try {
      await ensureImage(this.docker, image, ctx.say);
      await handOver(ctx.root, user);
      await removeStale(this.docker, name, this.settings.serversDir);
      const container = await this.docker.createContainer(config);
      const session = await openSession(this.docker, container, {
        stdin: role === 'main',
        output: (text) => this.events.output(text),
        say: ctx.say,
        start: async () => {
          try {
            await container.start();
          } catch (err) {
            await removeContainer(container).catch(() => undefined);
            throw err;
          }
        },
      });
      return this.track(container, session, role === 'main');
    } catch (err) {
      throw dockerErrorOf(err, image);
    }
  }

  private track(container: Docker.Container, session: Session, main: boolean): Current {
    const exited = session.exited.catch(() => LOST); // the engine went away: reported as a kill
    const current: Current = { session, container, main, finished: exited };
    current.finished = exited.then(async (state) => {
      await this.onExit(current, state);
      return { code: state.code, signal: state.signal };
    });
    this.current = current;
    return current;
  }

  private async onExit(current: Current, state: ExitState & { oomKilled?: boolean }): Promise<void> {
    await removeContainer(current.container).catch(() => undefined);
    if (this.current === current) this.current = null;
    if (state.oomKilled) this.context().say('docker.oomKilled', {});
    if (!current.main) return;
    this.exitState = { code: state.code, signal: state.signal };
    this.lastSample = null;
    this.events.exit(this.exitState);
  }

  async start(spec: ProcessSpec): Promise<void> {
    await this.run(spec, 'main');
  }

  async execute(spec: ProcessSpec): Promise<ExitState> {
    const current = await this.run(spec, 'install');
    return current.finished;
  }

  /**
   * After a daemon restart: re-attaches to this server's running container (true), or removes a leftover
   * one (an ended run, or an install the restart interrupted) and returns false.
   */
  async adopt(): Promise<boolean> {
    const ctx = this.context();
    const name = containerNameOf(ctx.serverId);
    const install = await inspectByName(this.docker, `${name}-install`);
    if (install && isOurs(install, this.settings.serversDir)) {
      await removeContainer(this.docker.getContainer(install.Id));
    }
    const info = await inspectByName(this.docker, name);
    if (!info || !isOurs(info, this.settings.serversDir)) return false;
    const container = this.docker.getContainer(info.Id);
    if (!info.State.Running) {
      ctx.say('docker.endedAway', { code: info.State.ExitCode });
      await removeContainer(container);
      return false;
    }
    // The previous daemon's console buffer died with it: show the container's recent output again.
    const recent = await container.logs({ stdout: true, stderr: true, tail: RECENT_LINES, follow: false });
    ctx.say('docker.reattached', { name, lines: RECENT_LINES });
    if (recent.length > 0) this.events.output(recent.toString('utf8'));
    const session = await openSession(this.docker, container, {
      stdin: true,
      output: (text) => this.events.output(text),
      say: ctx.say,
    });
    this.track(container, session, true);
    return true;
  }

  async stop(stop: StopSetting): Promise<void> {
    const current = this.current;
    if (!current?.main) return;
    if (stop.type === 'command') return current.session.write(`${stop.value}\n`);
    await current.container.kill({ signal: String(stop.value) }).catch((err: unknown) => {
      if ((err as { statusCode?: number }).statusCode !== 409) throw dockerErrorOf(err);
    });
  }

  async kill(): Promise<void> {
    const current = this.current;
    if (!current) return;
    await current.container.kill({ signal: 'SIGKILL' }).catch(() => undefined); // 409/404: already ended
  }

  async sendCommand(line: string): Promise<void> {
    this.mainRun().session.write(`${line}\n`);
  }

  async stats(): Promise<ProcessStats> {
    const current = this.current;
    if (!current?.main) return { cpu: 0, memory: 0 };
    try {
      const { stats, sample } = await containerStats(current.container, this.lastSample);
      this.lastSample = sample;
      return stats;
    } catch {
      return { cpu: 0, memory: 0 }; // the container ended between the check and the call
    }
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
    const current = this.current;
    if (!current) return;
    await this.kill();
    await current.finished;
  }
}
