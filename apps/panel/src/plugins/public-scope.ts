import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyPluginOptions,
} from 'fastify';

type Plugin<O extends FastifyPluginOptions> = FastifyPluginAsync<O> | FastifyPluginCallback<O>;

/**
 * Wraps a third-party plugin (static files, Swagger UI) so the routes it registers declare
 * `permission: 'public'` like ours do, and stay out of the OpenAPI document.
 */
export function markPublic<O extends FastifyPluginOptions>(plugin: Plugin<O>): FastifyPluginAsync<O> {
  return async (scope: FastifyInstance, options: O) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, permission: 'public' };
      route.schema = { ...route.schema, hide: true };
    });
    await scope.register(plugin as FastifyPluginAsync<O>, options);
  };
}
