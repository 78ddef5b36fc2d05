/**
 * Host-wide claims on server uids, so that two daemons on one host (a panel's local node beside another node,
 * or many test daemons) never hand the same uid to two servers (docs/security.md "Isolation model"): a server's
 * uid is its whole boundary, and a daemon kills leftovers of a uid before each start. One file per claimed uid
 * under /run/hearth/server-ids (root's tmpfs, so claims end with a reboot and are made again at load), holding
 * the servers dir and server id of its holder. A claim whose holder's definition no longer exists, or no longer
 * names that uid (a test's temp dir removed, a daemon that died mid-delete), is stale and may be taken over.
 */
import {
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';

export const REGISTRY_DIR = '/run/hearth/server-ids';
/** A claim this young is never stale: a create writes its definition within milliseconds of claiming. */
const CLAIM_GRACE_MS = 30_000;

interface Holder {
  serversDir: string;
  serverId: string;
}

/** What the allocator asks of the host: claims are synchronous, like the allocation itself. */
export interface HostClaims {
  claim(uid: number, serverId: string): boolean;
  release(uid: number, serverId: string): void;
}

function readHolder(path: string): Holder | null {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof raw.serversDir === 'string' && typeof raw.serverId === 'string'
      ? { serversDir: raw.serversDir, serverId: raw.serverId }
      : null;
  } catch {
    return null; // vanished or half-written: treated as stale
  }
}

/** The holder's definition still exists and still names `uid` (its `runAs`). */
function holds(holder: Holder, uid: number): boolean {
  try {
    const file = join(holder.serversDir, `${holder.serverId}.json`);
    const runAs = (JSON.parse(readFileSync(file, 'utf8')) as { runAs?: { uid?: unknown } }).runAs;
    return runAs?.uid === uid;
  } catch {
    return false; // no definition (deleted, or its dir removed): nobody holds the uid any more
  }
}

export class IdRegistry implements HostClaims {
  constructor(
    private readonly serversDir: string,
    private readonly dir = REGISTRY_DIR,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private pathOf(uid: number): string {
    return join(this.dir, String(uid));
  }

  private mine(holder: Holder | null, serverId: string): boolean {
    return holder?.serversDir === this.serversDir && holder.serverId === serverId;
  }

  claim(uid: number, serverId: string): boolean {
    const path = this.pathOf(uid);
    const text = JSON.stringify({ serversDir: this.serversDir, serverId });
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    if (this.mine(holder, serverId)) return true;
    // Stale only when no definition names the uid any more — and not within moments of the claim, before its
    // holder has had time to write the definition.
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (age < CLAIM_GRACE_MS || (holder && holds(holder, uid))) return false;
    const temp = `${path}.${process.pid}.${serverId}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    return this.mine(readHolder(path), serverId); // another daemon taking over at the same moment wins
  }

  release(uid: number, serverId: string): void {
    const path = this.pathOf(uid);
    if (this.mine(readHolder(path), serverId)) rmSync(path, { force: true });
  }
}
