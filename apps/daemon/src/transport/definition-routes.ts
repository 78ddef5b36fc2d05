/**
 * Definition, variables, create, delete, reload (docs/daemon.md § HTTP API; needs: docs/permissions.md). Bodies
 * arrive parsed by the rows' schemas: a definition by templateSchema (any bad field → ErrInvalidDefinition), a
 * variables update by serverDataUpdateSchema (→ ErrFieldInvalid).
 */
import type { FastifyInstance } from 'fastify';
import { variableEffects } from '@hearth/contract';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

export function definitionRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;

  daemonRoute(app, ctx, 'definitionRead', async (_request, _reply, { id }) => {
    return { ...manager.get(id).getDefinition(), id };
  });

  daemonRoute(app, ctx, 'definitionWrite', async (request, reply, { id, claims }) => {
    await manager.updateDefinition(id, request.body, claims.admin);
    return reply.status(204).send();
  });

  // Create: an admin token, or a non-admin token naming exactly this (new) id — the panel signs one for a
  // user allowed to create servers (the row's `view` need: the token names this id, or is node-wide and
  // admin). Only an admin's write is marked adminEdited (Docker bindings honoured).
  daemonRoute(app, ctx, 'create', async (request, _reply, { id, claims }) => {
    await manager.create(id, request.body, claims.admin);
    return { id };
  });

  daemonRoute(app, ctx, 'delete', async (_request, reply, { id }) => {
    await manager.remove(id);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'reload', async (_request, reply, { id }) => {
    await manager.reload(id);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'dataRead', async (_request, _reply, { id, claims }) => {
    const data = manager.data(id, claims.admin);
    const all = variableEffects(manager.get(id).getDefinition());
    // Only the effects of the variables this caller sees (a non-admin sees userEdit ones).
    const effects = Object.fromEntries(Object.keys(data).map((name) => [name, all[name] ?? []]));
    return { data, effects };
  });

  daemonRoute(app, ctx, 'dataWrite', async (request, reply, { id, claims }) => {
    await manager.updateData(id, request.body.data, claims.admin);
    return reply.status(204).send();
  });
}
