import { AppError } from '@hearth/contract';
import {
  loginBodySchema,
  loginResponseSchema,
  otpBodySchema,
  registerBodySchema,
  registerResponseSchema,
  sessionResponseSchema,
} from '@hearth/contract/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import { currentUser } from '../../plugins/auth';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session-cookie';
import type { SessionsService } from '../sessions/sessions.service';
import { PENDING_OTP_TTL_MS, type AuthService } from './auth.service';

/** The pending second-factor login: an HttpOnly cookie the web app never needs to read. */
const OTP_COOKIE = 'hearth_otp';
const tags = ['auth'];

function setOtpCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(OTP_COOKIE, token, {
    path: '/auth',
    sameSite: 'strict',
    httpOnly: true,
    secure: req.protocol === 'https',
    maxAge: PENDING_OTP_TTL_MS / 1000,
  });
}

export function authRoutes(app: App, auth: AuthService, sessions: SessionsService): void {
  app.post('/auth/login', {
    config: { permission: 'public' },
    schema: { tags, body: loginBodySchema, response: { 200: loginResponseSchema } },
    handler: async (req, reply) => {
      const result = await auth.login(req.ip, req.body.email, req.body.password);
      if (result.kind === 'otp') {
        setOtpCookie(req, reply, result.pendingToken);
        return { otpNeeded: true as const };
      }
      setSessionCookie(req, reply, result.body.session);
      return result.body;
    },
  });

  app.post('/auth/otp', {
    config: { permission: 'public' },
    schema: { tags, body: otpBodySchema, response: { 200: sessionResponseSchema } },
    handler: async (req, reply) => {
      const body = await auth.completeOtp(req.ip, req.cookies[OTP_COOKIE], req.body.token);
      reply.clearCookie(OTP_COOKIE, { path: '/auth' });
      setSessionCookie(req, reply, body.session);
      return body;
    },
  });

  app.post('/auth/register', {
    config: { permission: 'public' },
    schema: { tags, body: registerBodySchema, response: { 200: registerResponseSchema } },
    handler: async (req, reply) => {
      const body = await auth.register(req.ip, req.body);
      setSessionCookie(req, reply, body.session);
      return { ...body, token: body.session };
    },
  });

  app.post('/auth/reauth', {
    config: { permission: 'authenticated' },
    schema: { tags, response: { 200: sessionResponseSchema } },
    handler: async (req, reply) => {
      const me = currentUser(req);
      const current = me.via === 'session' ? await sessions.resolveHash(me.tokenHash) : undefined;
      if (!current) throw new AppError('ErrTokenInvalid');
      const body = await auth.reauth(current);
      setSessionCookie(req, reply, body.session);
      return body;
    },
  });

  app.post('/auth/logout', {
    config: { permission: 'authenticated' },
    schema: { tags },
    handler: async (req, reply) => {
      await sessions.revoke(currentUser(req).tokenHash);
      clearSessionCookie(reply);
      return reply.status(204).send();
    },
  });
}
