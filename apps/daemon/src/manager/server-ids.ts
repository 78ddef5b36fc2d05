/**
 * The manager's side of server uids (docs/security.md "Isolation model"): every server gets its own ids at
 * create (any environment: its type may change later), keeps them across restarts through its definition file
 * (`runAs`), and gives them back when deleted. A file without usable ids (written before isolation existed, or
 * edited by hand) gets fresh ones at load, written back at once.
 */
import type { Logger } from 'pino';
import type { FileOwner } from '../filesystem/fd-walk';
import { IdAllocator } from '../isolation/allocator';
import { fileOwnerOf } from '../isolation/file-owner';
import { accountIds, subordinateOverlaps } from '../isolation/host-ids';
import { IdRegistry, REGISTRY_DIR, type HostClaims } from '../isolation/id-registry';
import { storedIds, type ServerIds } from '../isolation/ids';
import { handFolderTo } from '../isolation/ownership';
import { killProcessesOf } from '../isolation/reap';
import type { Server, ServerSettings } from '../server/server';

/** The host-wide registry, or none (with a warning) where /run cannot hold it. */
function hostClaims(serversDir: string, logger: Logger): HostClaims | undefined {
  try {
    return new IdRegistry(serversDir);
  } catch (err) {
    logger.warn(
      { err },
      `isolation: cannot use ${REGISTRY_DIR}; other daemons on this host may hand out the same ids`,
    );
    return undefined;
  }
}

export class ServerIdBook {
  private readonly allocator: IdAllocator;

  constructor(
    private readonly settings: ServerSettings,
    private readonly logger: Logger,
    serversDir: string,
  ) {
    this.allocator = new IdAllocator(
      settings.isolation.range,
      accountIds(),
      settings.isolation.switchIds ? hostClaims(serversDir, logger) : undefined,
    );
    const overlaps = settings.isolation.switchIds ? subordinateOverlaps(settings.isolation.range) : [];
    if (overlaps.length > 0) {
      // Another user's containers may own files under these ids: a server given one could reach them.
      logger.warn(
        { overlaps },
        'isolation: the server id range overlaps subordinate ids (isolation.idRange*)',
      );
    }
  }

  /** At load: the file's ids when usable and not another server's, else fresh ones (`fresh`: write them back). */
  fromDisk(serverId: string, raw: unknown): { runAs: ServerIds; fresh: boolean } {
    const stored = storedIds(raw, this.settings.isolation.range);
    if (stored && this.allocator.claim(serverId, stored)) return { runAs: stored, fresh: false };
    const runAs = this.allocator.allocate(serverId);
    if (raw !== undefined)
      this.logger.warn(
        { serverId, stored: raw, runAs },
        'isolation: stored server ids unusable; new ones given',
      );
    return { runAs, fresh: true };
  }

  /** At create: synchronous, so two concurrent creates never share ids. */
  allocate(serverId: string): ServerIds {
    return this.allocator.allocate(serverId);
  }

  /** After a delete: whatever still runs under the server's uid is killed, then the ids are free again. */
  async release(server: Server): Promise<void> {
    if (this.settings.isolation.switchIds && server.runAs) await killProcessesOf(server.runAs.uid);
    this.allocator.release(server.id);
  }

  /** A create that failed before the server existed gives its ids back. */
  unclaim(serverId: string): void {
    this.allocator.release(serverId);
  }

  /** Who owns what the sandbox creates for `server` (read at each creation: the environment may change). */
  ownerOf(server: Server): FileOwner | null {
    const type = server.getDefinition().environment.type;
    return fileOwnerOf(type, server.runAs, this.settings.isolation, this.settings.docker.user);
  }

  /**
   * The server's folder (created if missing) owned by its owner, mode 0700, so no other server can read it
   * even before it first starts; the walk over its contents happens at each start (isolation/spawner.ts).
   */
  async protectFolder(server: Server): Promise<void> {
    const owner = this.ownerOf(server);
    if (owner) await handFolderTo(server.sandbox.root, owner, false);
  }
}
