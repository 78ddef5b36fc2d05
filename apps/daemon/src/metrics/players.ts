/**
 * Asks each running server whose template declares a `query` for its players, every `intervalMs`, and keeps the
 * answer on the server (`Server.players`, read by stats, /metrics and history). A server that is stopped, does not
 * answer, or declares no query has no count: unknown games show nothing (docs/daemon.md § Player counts).
 */
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from '../server/server';
import type { PlayerSource } from './gamedig-source';
import { queryTargetOf } from './query-target';

/** Queries in flight at once (each waits on the network, not the CPU). */
const PARALLEL = 8;

export class PlayerQuerier {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly servers: () => Server[],
    /** The source for a gamedig type; the default one for every type it does not name. */
    private readonly sourceFor: (type: string) => PlayerSource,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** One round over every server (the loop's body). */
  private async round(): Promise<void> {
    const queue = [...this.servers()];
    const worker = async () => {
      for (let server = queue.shift(); server; server = queue.shift()) await this.ask(server);
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  }

  private async ask(server: Server): Promise<void> {
    const target = server.isRunning() ? queryTargetOf(server.getDefinition()) : null;
    if (!target) {
      server.setPlayers(null);
      return;
    }
    try {
      const count = await this.sourceFor(target.type).query(target, server.id);
      server.setPlayers(server.isRunning() ? count : null);
    } catch (err) {
      server.setPlayers(null);
      this.log.debug({ err, id: server.id, type: target.type }, 'player query unanswered');
    }
  }

  private async loop(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      await this.round().catch((err: unknown) => this.log.warn({ err }, 'player query round failed'));
      await sleep(this.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
