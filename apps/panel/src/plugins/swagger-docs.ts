import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { zodValidatorCompiler } from './validation';

export type SwaggerDocs = FastifyInstance;

const noAnswer = async () => undefined;

/**
 * A Fastify app that only documents: the panel's recorded routes (method, URL, schema and config, with handlers
 * that are never called) under @fastify/swagger and the Swagger UI. The panel forwards /swagger requests to it
 * (plugins/swagger.ts); it never listens.
 */
export async function buildSwaggerDocs(routes: readonly RouteOptions[]): Promise<SwaggerDocs> {
  // HEAD routes are replayed as the panel registered them; the docs app adds none of its own.
  const docs = Fastify({ logger: false, exposeHeadRoutes: false });
  docs.setValidatorCompiler(zodValidatorCompiler);
  docs.setSerializerCompiler(serializerCompiler);
  await docs.register(fastifySwagger, {
    openapi: {
      info: { title: 'Hearth panel API', version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await docs.register(fastifySwaggerUi, { routePrefix: '/swagger', staticCSP: false });
  docs.get('/swagger/doc.json', { schema: { hide: true } }, async () => docs.swagger());
  for (const route of routes) {
    const { method, url, schema, config } = route;
    docs.route({
      method,
      url,
      handler: noAnswer,
      ...(schema ? { schema } : {}),
      ...(config ? { config } : {}),
    });
  }
  await docs.ready();
  return docs;
}
