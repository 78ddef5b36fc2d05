/**
 * Owns the Server objects of this node: loads definitions at boot, creates/updates/deletes them, applies
 * variable updates, starts autostart servers one by one, and stops everything on shutdown.
 */
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { AppError, type Template, type TransferCarry, type Variable } from '@hearth/contract';
import type { FileOwner } from '../filesystem/fd-walk';
import { Sandbox } from '../filesystem/sandbox';
import { attachLifecycle } from '../server/lifecycle';
import { beginStart, shutdownServer } from '../server/power';
import { Server, type ServerSettings } from '../server/server';
import { applyDataUpdate } from '../server/variables';
import { checkDefinition } from './definition';
import { TaskScheduler } from '../scheduler/scheduler';
import { TaskStore } from '../scheduler/task-store';
import { recoverContainers } from './docker-recovery';
import { InstallMarks } from './install-marks';
import { recoverProcesses } from './process-recovery';
import { ServerIdBook } from './server-ids';
import type { DefinitionStore } from './store';
import type { ServerIds } from '../isolation/ids';
import type { IsolationRuntime } from '../isolation/runtime';
import { fileOwnerOf } from '../isolation/file-owner';
import { handFolderTo } from '../isolation/ownership';

export class ServerManager {
  private readonly servers = new Map<string, Server>();
  private autostartTimer: NodeJS.Timeout | null = null;
  /** Scheduled and manual tasks (src/scheduler), stored beside each definition. */
  readonly tasks: TaskScheduler;
  /** Each server's own uid/gid (docs/security.md "Isolation model"). */
  private readonly serverIds: ServerIdBook;
  /** Ids being created right now: a second create of the same id is refused while the first one writes. */
  private readonly creating = new Set<string>();
  /** Whether each server was ever installed (the web offers Install before Start until then). */
  private readonly marks: InstallMarks;

  constructor(
    private readonly store: DefinitionStore,
    private readonly settings: ServerSettings,
    private readonly logger: Logger,
  ) {
    const taskStore = new TaskStore(store.dir);
    this.marks = new InstallMarks(store.dir);
    this.tasks = new TaskScheduler(taskStore, settings.tasks, logger, (id) => this.servers.get(id));
    this.serverIds = new ServerIdBook(settings, logger, store.dir);
  }

  /** How this node isolates standard/tty servers (GET /daemon/features). */
  isolation(): IsolationRuntime {
    return this.settings.isolation;
  }

  private add(
    id: string,
    definition: Template,
    adminEdited: boolean,
    runAs: ServerIds,
    installed: boolean,
  ): Server {
    const sandbox: Sandbox = new Sandbox(this.store.rootOf(id), (): FileOwner | null =>
      this.serverIds.ownerOf(server),
    );
    const server: Server = new Server(id, definition, sandbox, this.settings);
    server.setAdminEdited(adminEdited);
    server.setRunAs(runAs);
    server.setInstallMark(installed, () => this.marks.write(id, true));
    attachLifecycle(server);
    this.servers.set(id, server);
    return server;
  }

  /**
   * Loads every stored definition (a broken file is logged and skipped, never fatal), then re-attaches to
   * containers and holders that outlived the previous daemon and removes those of deleted servers.
   */
  async load(): Promise<void> {
    await this.store.init();
    const ids = await this.store.ids();
    for (const id of ids) {
      try {
        const stored = await this.store.read(id);
        const { definition, adminEdited } = stored;
        const { runAs, fresh } = this.serverIds.fromDisk(id, stored.runAs);
        if (fresh) await this.store.write(id, definition, adminEdited, runAs);
        const installed = await this.marks.read(id);
        await this.serverIds.protectFolder(this.add(id, definition, adminEdited, runAs, installed));
        await this.tasks.load(id, definition.tasks);
      } catch (err) {
        this.logger.error({ err, id }, 'cannot load server definition; skipped');
      }
    }
    await recoverContainers(this.list(), this.settings.docker, this.logger);
    await recoverProcesses(this.list(), ids, this.settings.runDir, this.logger);
  }

  get(id: string): Server {
    const server = this.servers.get(id);
    if (!server) throw new AppError('ErrServerNotFound', { id });
    return server;
  }

  list(): Server[] {
    return [...this.servers.values()];
  }

  /** `adminEdited`: the caller's token is an admin's (the daemon's mark, see docs/daemon.md § Docker). */
  async create(id: string, parsed: Template, adminEdited: boolean): Promise<Server> {
    if (this.servers.has(id) || this.creating.has(id)) throw new AppError('ErrServerAlreadyExists', { id });
    const definition = checkDefinition(parsed);
    this.creating.add(id);
    const runAs = this.serverIds.allocate(id);
    try {
      await this.marks.write(id, false);
      await this.store.write(id, definition, adminEdited, runAs);
      await mkdir(this.store.rootOf(id), { recursive: true, mode: 0o700 });
      await chmod(this.store.rootOf(id), 0o700); // an existing folder too: no other server may read it
      const server = this.add(id, definition, adminEdited, runAs, false);
      await this.serverIds.protectFolder(server);
      return server;
    } catch (err) {
      if (!this.servers.has(id)) this.serverIds.unclaim(id);
      throw err;
    } finally {
      this.creating.delete(id);
    }
  }

  /**
   * A server moved here from another node (transfer/staging.ts): registered as a create would — stopped, and
   * marked installed, being a copy of an installed server — with `folder`, the complete copy on the servers'
   * filesystem, handed to the server's owner and renamed into place. The definition is written last: it is
   * what makes the server exist at the next load. Any failure undoes every step and puts `folder` back.
   */
  async adopt(id: string, parsed: Template, folder: string, carry: TransferCarry): Promise<Server> {
    if (this.servers.has(id) || this.creating.has(id)) throw new AppError('ErrServerAlreadyExists', { id });
    const definition = checkDefinition(parsed);
    this.creating.add(id);
    const runAs = this.serverIds.allocate(id);
    const root = this.store.rootOf(id);
    let placed = false;
    try {
      const { isolation, docker } = this.settings;
      const owner = fileOwnerOf(definition.environment.type, runAs, isolation, docker.user);
      if (owner) await handFolderTo(folder, owner);
      else await chmod(folder, 0o700);
      // A folder without a definition is no server's (a commit or delete cut short): it gives way.
      await rm(root, { recursive: true, force: true });
      await rename(folder, root);
      placed = true;
      await this.marks.write(id, true);
      await this.tasks.receive(id, carry.tasks);
      // The source node's marks, not the transfer's caller: a user-written definition stays one (Docker bindings).
      await this.store.write(id, definition, carry.adminEdited, runAs);
      const server = this.add(id, definition, carry.adminEdited, runAs, true);
      await this.tasks.load(id, definition.tasks);
      return server;
    } catch (err) {
      if (!this.servers.has(id)) {
        if (placed) await rename(root, folder);
        await this.store.remove(id);
        await this.tasks.remove(id);
        await this.marks.remove(id);
        this.serverIds.unclaim(id);
      }
      throw err;
    } finally {
      this.creating.delete(id);
    }
  }

  async updateDefinition(id: string, parsed: Template, adminEdited: boolean): Promise<void> {
    const server = this.get(id);
    const definition = checkDefinition(parsed);
    await this.store.write(id, definition, adminEdited, server.runAs);
    server.setDefinition(definition);
    server.setAdminEdited(adminEdited);
  }

  /** Variables; non-admins see only `userEdit` ones (reference §8). */
  data(id: string, admin: boolean): Record<string, Variable> {
    const entries = Object.entries(this.get(id).getDefinition().data);
    return Object.fromEntries(entries.filter(([, v]) => admin || v.userEdit));
  }

  async updateData(id: string, updates: Record<string, { value: unknown }>, admin: boolean): Promise<void> {
    const server = this.get(id);
    const data = server.getDefinition().data;
    const locked = Object.keys(updates).find((name) => data[name] && !data[name].userEdit && !admin);
    if (locked) throw new AppError('ErrNoPermission', { field: locked });
    const definition = applyDataUpdate(server.getDefinition(), updates);
    await this.store.write(id, definition, server.adminEdited, server.runAs);
    server.setDefinition(definition);
  }

  /** Re-reads the definition from disk; the console and its subscribers are kept. */
  async reload(id: string): Promise<void> {
    const server = this.get(id);
    const { definition, adminEdited } = await this.store.read(id);
    server.setDefinition(definition);
    server.setAdminEdited(adminEdited);
    await this.tasks.load(id, definition.tasks);
    server.say('definition.reloaded', {});
  }

  /** Deleting kills a running server first, then removes its definition and folder. */
  async remove(id: string): Promise<void> {
    const server = this.get(id);
    this.servers.delete(id);
    await this.tasks.remove(id);
    await shutdownServer(server, 0);
    await this.store.remove(id);
    await this.marks.remove(id);
    await this.serverIds.release(server);
  }

  /** Starts autostart servers one per `intervalMs`, so a node with many servers does not stampede. */
  startAutostart(intervalMs: number): void {
    const queue = this.list().filter((s) => s.getDefinition().run.autostart);
    const next = () => {
      const server = queue.shift();
      if (!server) return void (this.autostartTimer = null);
      if (!server.isRunning() && this.servers.has(server.id)) {
        Promise.resolve()
          .then(() => beginStart(server)())
          .catch((err: unknown) => this.logger.warn({ err, id: server.id }, 'autostart failed'));
      }
      this.autostartTimer = setTimeout(next, intervalMs);
    };
    next();
  }

  /** Leaves every server running for the next daemon (an upgrade): nothing is stopped. */
  async detach(): Promise<void> {
    if (this.autostartTimer) clearTimeout(this.autostartTimer);
    this.tasks.stopAll();
    const all = this.list();
    this.servers.clear();
    await Promise.all(all.map((s) => s.detach()));
  }

  async shutdown(timeoutMs: number): Promise<void> {
    if (this.autostartTimer) clearTimeout(this.autostartTimer);
    this.tasks.stopAll();
    const all = this.list();
    this.servers.clear();
    await Promise.all(all.map((s) => shutdownServer(s, timeoutMs)));
  }
}
