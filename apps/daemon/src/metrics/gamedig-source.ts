/**
 * Player counts through gamedig (docs/daemon.md § Player counts): one UDP socket for every query, the given port
 * only (no guessing of query ports on a machine full of other servers), one attempt bounded by the timeout.
 */
// The declaration travels with the import: the CLI and the root project compile this file without daemon's src.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./gamedig.d.ts" />
import type { GameDig } from 'gamedig';
import type { PlayerCount } from '@hearth/contract';
import type { QueryTarget } from './query-target';

export interface PlayerSource {
  /** The count, or a rejection when the server does not answer (then its players are unknown). */
  query(target: QueryTarget, serverId: string): Promise<PlayerCount>;
}

export class GamedigSource implements PlayerSource {
  /**
   * Loaded by the first query, not at start: gamedig and its protocol stack are most of the daemon's code, and
   * most nodes never query a player count (docs/performance.md § Start-up).
   */
  private gamedig: Promise<GameDig> | undefined;

  constructor(private readonly timeoutMs: number) {}

  async query(target: QueryTarget): Promise<PlayerCount> {
    this.gamedig ??= import('gamedig').then((m) => new m.GameDig());
    const result = await (
      await this.gamedig
    ).query({
      type: target.type,
      host: target.host,
      port: target.port,
      givenPortOnly: true,
      maxRetries: 1,
      socketTimeout: this.timeoutMs,
      attemptTimeout: this.timeoutMs,
    });
    const online = Number.isInteger(result.numplayers) ? result.numplayers : result.players.length;
    return { online: Math.max(0, online), max: Math.max(0, Math.trunc(result.maxplayers) || 0) };
  }
}
