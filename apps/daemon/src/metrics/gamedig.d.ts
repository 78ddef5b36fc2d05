/** The part of gamedig 5 (no type declarations of its own) the player query uses (src/metrics/gamedig-source.ts). */
declare module 'gamedig' {
  export interface QueryOptions {
    type: string;
    host: string;
    port?: number;
    givenPortOnly?: boolean;
    maxRetries?: number;
    socketTimeout?: number;
    attemptTimeout?: number;
    requestPlayers?: boolean;
  }
  export interface QueryResult {
    numplayers: number;
    maxplayers: number;
    players: unknown[];
  }
  export class GameDig {
    constructor(options?: { listenUdpPort?: number });
    query(options: QueryOptions): Promise<QueryResult>;
  }
  export const games: Record<string, { name: string; options: { protocol: string } }>;
}
