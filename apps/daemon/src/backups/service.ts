/**
 * The node's backups (docs/backups.md): what the transport's backup routes, the `backup` task step and the
 * schedules call. Every operation on a server's snapshots starts by resolving the snapshot among that server's
 * own (snapshots.ts); backups, restores and deletions take the server's one operation slot (operations.ts) and
 * report `backup-done` to its sockets.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  AppError,
  isAppError,
  type BackupCreated,
  type BackupDetails,
  type BackupDownloadQuery,
  type BackupList,
  type BackupPolicy,
  type BackupRestoreBody,
  type BackupTree,
} from '@hearth/contract';
import type { TaskSettings } from '../scheduler/cron';
import { checkSchedule } from '../scheduler/cron';
import type { Server } from '../server/server';
import { runBackup, type BackupRequest } from './create';
import { openDownload, type Download } from './download';
import { OperationBook, type Operation } from './operations';
import { Repository } from './repository';
import { runRestore } from './restore';
import { recoverRestores } from './restore-journal';
import { BackupSchedules } from './schedules';
import { listSnapshots, resolveSnapshot, resolveSnapshotId, toBackup } from './snapshots';
import { reportOutcome, type Outcome } from './outcome';
import { recordBackup, recordRestoreFailed } from './activity';
import { checkPolicyChange } from './policy-change';
import { BackupStateStore } from './state-store';
import { readTree } from './tree';

export interface BackupCaller {
  sub: string;
  admin: boolean;
  perms: readonly string[];
}

export interface BackupServiceOptions {
  backupsDir: string;
  serversDir: string;
  nodeId: string;
  resticPath: string;
  time: TaskSettings;
  /** The node's server of an id (ErrServerNotFound otherwise). */
  server: (id: string) => Server;
  log: Logger;
}

export class BackupService {
  readonly repo: Repository;
  readonly states: BackupStateStore;
  private readonly ops = new OperationBook();
  readonly schedules: BackupSchedules;

  constructor(private readonly options: BackupServiceOptions) {
    this.repo = new Repository(options.backupsDir, options.resticPath);
    this.states = new BackupStateStore(join(options.backupsDir, 'servers'));
    this.schedules = new BackupSchedules(options.time, (id) => void this.scheduled(id));
  }

  /** At start: interrupted restores are finished or cleaned up; each server's schedule is armed. */
  async start(serverIds: readonly string[]): Promise<void> {
    for (const line of await recoverRestores(this.options.serversDir))
      this.options.log.warn(`backups: ${line}`);
    // Pack files a killed restic left in its temporary folder (restic removes them itself when it ends).
    await rm(join(this.options.backupsDir, 'tmp'), { recursive: true, force: true });
    for (const id of serverIds) this.schedules.set(id, (await this.states.read(id)).policy.schedule);
    // The repository is opened by its first use, not here: every daemon start would otherwise run restic (a
    // key derivation on a new repository) and leave it writing while a stop removes the data folder.
  }

  private deps() {
    const { nodeId } = this.options;
    return { repo: this.repo, states: this.states, nodeId, now: () => this.options.time.clock.now() };
  }

  private finish(server: Server, operation: Operation, kind: 'backup' | 'restore', outcome: Outcome) {
    const { log, time } = this.options;
    return reportOutcome(
      { states: this.states, log, at: time.clock.now() },
      server,
      operation,
      kind,
      outcome,
    );
  }

  async create(server: Server, request: BackupRequest): Promise<BackupCreated> {
    let begun: ReturnType<OperationBook['begin']>;
    try {
      begun = this.ops.begin([server.id], 'backup');
    } catch (err) {
      recordBackup(server, request.trigger, { error: err }); // busy: not taken, and the log says so
      throw err;
    }
    const { operation, end } = begun;
    try {
      const { policy } = await this.states.read(server.id);
      server.say('backup.started', { trigger: request.trigger });
      const id = await runBackup(this.deps(), server, request, operation.id, policy);
      server.say('backup.written', { id: id.slice(0, 8) });
      await this.finish(server, operation, 'backup', { backupId: id });
      recordBackup(server, request.trigger, { id });
      return { id, operation: operation.id };
    } catch (err) {
      server.say('backup.failed', { reason: err instanceof Error ? err.message : String(err) });
      await this.finish(server, operation, 'backup', { error: err });
      recordBackup(server, request.trigger, { error: err });
      throw err;
    } finally {
      end();
    }
  }

  private async scheduled(serverId: string): Promise<void> {
    try {
      await this.create(this.options.server(serverId), { trigger: 'schedule', by: null });
    } catch (err) {
      // A deleted server's schedule ends with it (its snapshots stay in the repository: docs/backups.md).
      if (isAppError(err) && err.code === 'ErrServerNotFound') return this.schedules.set(serverId, null);
      this.options.log.warn(
        { serverId, err: isAppError(err) ? err.code : err },
        'backups: scheduled backup not taken',
      );
    }
  }

  /** The backup operation of `serverId` running now, if any (a transfer's export waits for none: transfer/). */
  runningKind(serverId: string): string | null {
    return this.ops.current(serverId)?.kind ?? null;
  }

  async list(server: Server): Promise<BackupList> {
    const [snapshots, state] = await Promise.all([
      listSnapshots(this.repo, server.id),
      this.states.read(server.id),
    ]);
    const running = this.ops.current(server.id);
    return {
      backups: snapshots.map((s) => toBackup(s, state)),
      running: running && running.kind !== 'delete' ? { operation: running.id, kind: running.kind } : null,
      last: state.last,
      nextScheduled: this.schedules.next(server.id),
    };
  }

  async details(server: Server, backupId: string): Promise<BackupDetails> {
    const snapshot = await resolveSnapshot(this.repo, server.id, backupId);
    const state = await this.states.read(server.id);
    return {
      ...toBackup(snapshot, state),
      hostname: snapshot.hostname,
      hooks: (snapshot.tags ?? []).includes('hearth-hooks') ? 'ran' : 'none',
    };
  }

  async tree(server: Server, backupId: string, path: string): Promise<BackupTree> {
    const snapshot = await resolveSnapshot(this.repo, server.id, backupId);
    return readTree(this.repo, snapshot.id, path);
  }

  async download(server: Server, backupId: string, query: BackupDownloadQuery): Promise<Download> {
    const snapshot = await resolveSnapshot(this.repo, server.id, backupId);
    return openDownload(this.repo, snapshot, server.id, query);
  }

  /** Into the same server, or (admins) into another stopped server of this node: a clone. */
  async restore(server: Server, backupId: string, body: BackupRestoreBody, caller: BackupCaller) {
    if (body.intoServer !== undefined && body.intoServer !== server.id && !caller.admin)
      throw new AppError('ErrNoPermission', { field: 'intoServer' });
    const target = body.intoServer ? this.options.server(body.intoServer) : server;
    const state = await this.states.read(server.id);
    const snapshotId = await resolveSnapshotId(this.repo, state, server.id, backupId);
    const ids = target.id === server.id ? [server.id] : [server.id, target.id];
    const { operation, end } = this.ops.begin(ids, 'restore');
    try {
      const request = { snapshotId, paths: body.paths, operation: operation.id };
      await runRestore({ repo: this.repo, serversDir: this.options.serversDir }, target, request);
      await this.finish(target, operation, 'restore', { backupId: snapshotId });
      return { operation: operation.id, server: target.id };
    } catch (err) {
      await this.finish(target, operation, 'restore', { error: err });
      recordRestoreFailed(target, snapshotId, err);
      throw err;
    } finally {
      end();
    }
  }

  async lock(server: Server, backupId: string, locked: boolean): Promise<void> {
    const snapshot = await resolveSnapshot(this.repo, server.id, backupId);
    await this.states.update(server.id, (state) => {
      state.locked = state.locked.filter((id) => id !== snapshot.id);
      if (locked) state.locked.push(snapshot.id);
    });
  }

  async delete(server: Server, backupId: string): Promise<void> {
    const snapshot = await resolveSnapshot(this.repo, server.id, backupId);
    if ((await this.states.read(server.id)).locked.includes(snapshot.id))
      throw new AppError('ErrBackupLocked');
    const { end } = this.ops.begin([server.id], 'delete');
    try {
      await this.repo.run('exclusive', ['forget', snapshot.id]);
      await this.states.update(server.id, (state) => {
        delete state.records[snapshot.id];
      });
    } finally {
      end();
    }
  }

  async policy(server: Server): Promise<BackupPolicy> {
    return (await this.states.read(server.id)).policy;
  }

  /** Limits are an administrator's; retention deletes (deleteServerBackups); hooks are console input. */
  async setPolicy(server: Server, policy: BackupPolicy, caller: BackupCaller): Promise<void> {
    const schedule = checkSchedule(policy.schedule);
    checkPolicyChange((await this.states.read(server.id)).policy, policy, caller);
    await this.states.update(server.id, (state) => {
      state.policy = { ...policy, schedule };
    });
    this.schedules.set(server.id, schedule);
  }

  stop(): void {
    this.schedules.stop();
  }
}
