/**
 * The ceiling for `bench:api`: bare Fastify (no auth, no database, no hooks) answering `GET /api/servers` with
 * the exact JSON body the panel returned, read from the file named by argv[2]. Prints `{port}` as JSON.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.argv[2] ?? '', 'utf8');
const app = Fastify({ logger: false });
app.get('/api/servers', (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`,
);
process.once('SIGTERM', () => process.exit(0));
