/** Definition, variables, create, delete, reload (SPEC §7 daemon proxy; node-admin except data). */
import type { FastifyInstance } from 'fastify';
import { AppError, serverDataUpdateSchema } from '@hearth/contract';
import { guard, type TransportContext } from './context';

export function definitionRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;

  app.get('/daemon/server/:id', async (request) => {
    const { id } = await guard(ctx, request, 'admin');
    return { ...manager.get(id).getDefinition(), id };
  });

  app.post('/daemon/server/:id', async (request, reply) => {
    const { id, claims } = await guard(ctx, request, 'admin');
    await manager.updateDefinition(id, request.body, claims.admin);
    return reply.status(204).send();
  });

  // Create: an admin token, or a non-admin token naming exactly this (new) id — the panel signs one for a
  // user allowed to create servers. Only an admin's write is marked adminEdited (Docker bindings honoured).
  app.put('/daemon/server/:id', async (request) => {
    const { id, claims } = await guard(ctx, request, 'view');
    if (!claims.admin && claims.server !== id) {
      throw new AppError('ErrMissingScope', { scope: 'servers.admin' });
    }
    await manager.create(id, request.body, claims.admin);
    return { id };
  });

  app.delete('/daemon/server/:id', async (request, reply) => {
    const { id } = await guard(ctx, request, 'admin');
    await manager.remove(id);
    return reply.status(204).send();
  });

  app.post('/daemon/server/:id/reload', async (request, reply) => {
    const { id } = await guard(ctx, request, 'admin');
    await manager.reload(id);
    return reply.status(204).send();
  });

  app.get('/daemon/server/:id/data', async (request) => {
    const { id, claims } = await guard(ctx, request, 'editServerData');
    return { data: manager.data(id, claims.admin) };
  });

  app.post('/daemon/server/:id/data', async (request, reply) => {
    const { id, claims } = await guard(ctx, request, 'editServerData');
    const parsed = serverDataUpdateSchema.safeParse(request.body);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || 'data';
      throw new AppError('ErrFieldInvalid', { field });
    }
    await manager.updateData(id, parsed.data.data, claims.admin);
    return reply.status(204).send();
  });
}
