import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Counts this process's writes (every statement that is not a SELECT), before and after each runs. In-process
 * caches of database state (the identity cache) remember the count they read at and drop an entry as soon as
 * any write has happened since — a revoked session, a changed permission or a deleted client is seen at once.
 */
export class WriteGeneration implements KyselyPlugin {
  #value = 0;
  readonly #writes = new WeakSet<object>();

  get value(): number {
    return this.#value;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') {
      this.#value += 1;
      this.#writes.add(args.queryId);
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) this.#value += 1;
    return Promise.resolve(args.result);
  }
}
