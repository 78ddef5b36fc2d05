import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActivityActor } from './activity.service';
import { requestActor } from './actor';

/**
 * The request a service call runs for, so services record their actor and IP without each signature carrying
 * them (docs/activity.md § Recording). Outside a request (background work) there is none: the system acts.
 */
const current = new AsyncLocalStorage<FastifyRequest>();

export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => current.run(req, done));
}

/** The actor of the request being served, or null outside one. */
export function contextActor(): ActivityActor | null {
  const req = current.getStore();
  return req ? requestActor(req) : null;
}
