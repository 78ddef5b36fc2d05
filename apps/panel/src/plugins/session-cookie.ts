import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS } from '../modules/sessions/sessions.service';

export const SESSION_COOKIE_NAME = 'hearth_session';

/**
 * The session cookie: SameSite=Strict, path /, not HttpOnly because the web app reads it to send the
 * `Authorization: Bearer` header; Secure when the request came over TLS.
 */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE_NAME, token, {
    path: '/',
    sameSite: 'strict',
    httpOnly: false,
    secure: req.protocol === 'https',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE_NAME, { path: '/' });
}
