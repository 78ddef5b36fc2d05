/**
 * Moving a server between nodes, the daemon's side (rows of the contract's transfer-routes.ts, all needing the
 * panel's own token; docs/daemon.md § Transfer): the export of a stopped server as a tar stream, and the
 * prepare → data → commit (or abort) of an incoming copy. The work is in ../transfer; here only HTTP.
 * These rows are node-wide (need `'panel'`) and name the server as `:server`, validated by the row's params
 * schema; the guard checks no server claim for them.
 */
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Backups } from '../backups/setup';
import { holdForExport, streamExport } from '../transfer/export';
import { TransferStaging } from '../transfer/staging';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

export function transferRoutes(app: FastifyInstance, ctx: TransportContext, backups: Backups | null): void {
  const { config, manager } = ctx;
  const staging = new TransferStaging(resolve(config.serversDir ?? ''), manager, config.nodeId);
  const busy = (id: string) => backups?.service.runningKind(id) ?? null;
  // Copies a killed daemon was receiving are dropped before the node answers anything.
  app.addHook('onReady', async () => staging.sweep());

  // A reader that stalls would keep its export (and the server's lock) forever: closing the daemon cuts them.
  const exports = new Set<ServerResponse>();
  app.addHook('preClose', async () => exports.forEach((raw) => raw.destroy()));

  daemonRoute(app, ctx, 'transferExport', async (request, reply) => {
    const server = manager.get(request.params.server);
    const release = holdForExport(server, busy);
    reply.hijack();
    exports.add(reply.raw);
    try {
      await streamExport(server, reply.raw, request.log);
    } finally {
      exports.delete(reply.raw);
      release();
    }
  });

  daemonRoute(app, ctx, 'transferCarry', async (request) => {
    const server = manager.get(request.params.server);
    return { adminEdited: server.adminEdited, tasks: manager.tasks.stored(server.id) };
  });

  daemonRoute(app, ctx, 'transferPrepare', async (request, reply) => {
    const { definition, bytes, carry } = request.body;
    await staging.prepare(request.params.server, definition, bytes, carry);
    return reply.status(204).send();
  });

  void app.register(async (scope) => {
    // The tar stream is read by its handler as it comes, whatever its media type; no body parser reads it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    daemonRoute(scope, ctx, 'transferData', async (request) => {
      const cut = () => request.raw.destroy();
      return staging.receive(request.params.server, request.raw, cut);
    });
  });

  daemonRoute(app, ctx, 'transferCommit', async (request) => {
    await staging.commit(request.params.server, request.body.sha256);
    return {};
  });

  daemonRoute(app, ctx, 'transferAbort', async (request, reply) => {
    await staging.abort(request.params.server);
    return reply.status(204).send();
  });
}
