import { tokenResponseSchema } from '@hearth/contract/accounts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import { OAuthError, type ClientsService } from './clients.service';

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new OAuthError('invalid_request', 400, 'malformed basic credentials');
  }
}

/** Client credentials from HTTP Basic auth (preferred by RFC 6749) or from the body. */
function credentialsOf(req: FastifyRequest, body: Record<string, unknown>): { id: string; secret: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  }
  const id = body.client_id;
  const secret = body.client_secret;
  if (typeof id !== 'string' || typeof secret !== 'string' || !id || !secret) {
    throw new OAuthError('invalid_request', 400, 'client_id and client_secret are required');
  }
  return { id, secret };
}

function fail(reply: FastifyReply, err: OAuthError) {
  return reply.status(err.status).send({ error: err.error, error_description: err.description });
}

/** `POST /oauth2/token` (client_credentials). Accepts form-encoded or JSON bodies; errors in OAuth2 shape. */
export async function tokenRoutes(app: App, clients: ClientsService): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.post(
      '/oauth2/token',
      {
        config: { permission: 'public' },
        schema: { tags: ['oauth2'], response: { 200: tokenResponseSchema } },
      },
      async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<
          string,
          unknown
        >;
        try {
          if (body.grant_type !== 'client_credentials') {
            throw new OAuthError('unsupported_grant_type', 400, 'only client_credentials is supported');
          }
          const { id, secret } = credentialsOf(req, body);
          return await clients.token(req.ip, id, secret);
        } catch (err) {
          if (err instanceof OAuthError) return fail(reply, err);
          throw err;
        }
      },
    );
  });
}
