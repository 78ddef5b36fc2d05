import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { App } from '../app-types';
import type { SwaggerDocs } from './swagger-docs';

/** Swagger UI's routes below /swagger (the table @fastify/swagger-ui registers) and the OpenAPI document. */
const uiRoutes: Array<{ method: 'GET' | ['HEAD', 'GET']; url: string }> = [
  { method: 'GET', url: '/' },
  { method: 'GET', url: '/static/index.html' },
  { method: 'GET', url: '/static/swagger-initializer.js' },
  { method: 'GET', url: '/json' },
  { method: 'GET', url: '/yaml' },
  { method: ['HEAD', 'GET'], url: '/static/*' },
  { method: 'GET', url: '/doc.json' },
];

// Answers of the docs app that belong to its own connection, not to the one being answered here.
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * OpenAPI generated from the zod route schemas: UI at /swagger, document at /swagger/doc.json. The generator and
 * the UI (with their YAML and schema-resolver libraries) load on the first visit, not at start: the routes are
 * recorded as they are registered, and the first request builds the documentation app from them
 * (plugins/swagger-docs.ts; docs/performance.md § Start-up).
 */
export async function registerSwagger(app: App): Promise<void> {
  const routes: RouteOptions[] = [];
  // The same route objects @fastify/swagger would collect, read when the document is built (after every hook).
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/swagger')) routes.push(route);
  });
  let docs: Promise<SwaggerDocs> | undefined;
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    docs ??= import('./swagger-docs').then((m) => m.buildSwaggerDocs(routes));
    docs.catch(() => (docs = undefined)); // a failed build is retried by the next visit
    // HEAD is answered from the GET (Fastify drops the body of a HEAD answer); the docs app has no HEAD routes.
    const answer = await (await docs).inject({ method: 'GET', url: req.url });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !hopByHop.has(name)) void reply.header(name, value);
    }
    void reply.code(answer.statusCode);
    // An empty answer (a redirect) stays without a body, so no content type is invented for it.
    return answer.rawPayload.length > 0 ? reply.send(answer.rawPayload) : reply.send();
  };
  // Under a prefix, '/' answers both /swagger and /swagger/, as the UI plugin's own route did.
  await app.register(
    async (scope) => {
      for (const { method, url } of uiRoutes) {
        scope.route({
          method,
          url,
          config: { permission: 'public' },
          schema: { hide: true },
          handler: forward,
        });
      }
    },
    { prefix: '/swagger' },
  );
}
