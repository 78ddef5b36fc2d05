import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../app-types';
import { markPublic } from './public-scope';

/** OpenAPI generated from the zod route schemas: UI at /swagger, document at /swagger/doc.json. */
export async function registerSwagger(app: App): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Hearth panel API', version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // The UI's own routes are public documentation pages.
  await app.register(markPublic(fastifySwaggerUi), { routePrefix: '/swagger', staticCSP: false });
  app.get('/swagger/doc.json', { config: { permission: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
