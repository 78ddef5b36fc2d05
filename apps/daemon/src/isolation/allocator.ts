/**
 * Hands each server its own uid/gid from the configured range (docs/security.md "Isolation model"). Claims are
 * synchronous, so concurrent creates in this process can never get the same id; the ids live in each definition
 * file (`runAs`) and are claimed again at load, so they survive a restart. Ids of host accounts are skipped, and
 * ids another daemon on the host holds (id-registry.ts) too.
 */
import { AppError } from '@hearth/contract';
import type { HostClaims } from './id-registry';
import { inRange, type IdRange, type ServerIds } from './ids';

const noHostClaims: HostClaims = { claim: () => true, release: () => undefined };

export class IdAllocator {
  private readonly byServer = new Map<string, number>();
  private readonly used = new Set<number>();

  constructor(
    private readonly range: IdRange,
    private readonly hostIds: ReadonlySet<number> = new Set(),
    private readonly host: HostClaims = noHostClaims,
  ) {}

  /**
   * Records ids read from disk; false when unusable (outside the range, a host account, another server's here,
   * or another daemon's on this host).
   */
  claim(serverId: string, ids: ServerIds): boolean {
    if (ids.uid !== ids.gid || !inRange(ids.uid, this.range) || this.hostIds.has(ids.uid)) return false;
    if (this.byServer.get(serverId) === ids.uid) return true;
    if (this.used.has(ids.uid) || !this.host.claim(ids.uid, serverId)) return false;
    this.release(serverId);
    this.byServer.set(serverId, ids.uid);
    this.used.add(ids.uid);
    return true;
  }

  /** The lowest free id for `serverId` (its own if it has one); 503 ErrServerIdsExhausted when none is left. */
  allocate(serverId: string): ServerIds {
    const own = this.byServer.get(serverId);
    if (own !== undefined) return { uid: own, gid: own };
    for (let id = this.range.idRangeStart; id <= this.range.idRangeEnd; id += 1) {
      if (this.used.has(id) || this.hostIds.has(id) || !this.host.claim(id, serverId)) continue;
      this.byServer.set(serverId, id);
      this.used.add(id);
      return { uid: id, gid: id };
    }
    throw new AppError('ErrServerIdsExhausted', {
      range: `${this.range.idRangeStart}-${this.range.idRangeEnd}`,
    });
  }

  get(serverId: string): ServerIds | null {
    const id = this.byServer.get(serverId);
    return id === undefined ? null : { uid: id, gid: id };
  }

  release(serverId: string): void {
    const id = this.byServer.get(serverId);
    if (id === undefined) return;
    this.byServer.delete(serverId);
    this.used.delete(id);
    this.host.release(id, serverId);
  }
}
