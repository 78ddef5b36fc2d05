/** Definition, variables, create, delete, reload (SPEC §7 daemon proxy; needs: docs/permissions.md). */
import type { FastifyInstance } from 'fastify';
import { AppError, serverDataUpdateSchema } from '@hearth/contract';
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
    return { data: manager.data(id, claims.admin) };
  });

  daemonRoute(app, ctx, 'dataWrite', async (request, reply, { id, claims }) => {
    const parsed = serverDataUpdateSchema.safeParse(request.body);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || 'data';
      throw new AppError('ErrFieldInvalid', { field });
    }
    await manager.updateData(id, parsed.data.data, claims.admin);
    return reply.status(204).send();
  });
}
