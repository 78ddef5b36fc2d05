import { ReadCache } from '../../db/read-cache';
import type { WriteGeneration } from '../../db/write-generation';
import type { IdentityRepository, TokenIdentityRow } from './identity.repository';

/** Long enough to absorb a burst of requests, short enough to bound what another panel process changed. */
const TTL_MS = 2_000;

/**
 * Token hash → identity row in front of the one-join lookup (the auth check of every request). Logout,
 * revocation, permission or status changes and client deletion in this process are seen at once (any write
 * drops the entries); never kept past the session's expiry.
 */
export class CachedIdentities {
  readonly #cache: ReadCache<TokenIdentityRow | undefined>;

  constructor(
    private readonly repo: Pick<IdentityRepository, 'lookup'>,
    writes: WriteGeneration,
  ) {
    this.#cache = new ReadCache(writes, TTL_MS, 1_000);
  }

  lookup(tokenHash: string, now: number): Promise<TokenIdentityRow | undefined> {
    return this.#cache.get(
      tokenHash,
      () => this.repo.lookup(tokenHash, now),
      (row) => row?.expiresAt ?? 0,
    );
  }
}
