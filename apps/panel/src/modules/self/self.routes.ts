import { z } from 'zod';
import {
  otpConfirmBodySchema,
  otpConfirmQuerySchema,
  otpEnrolmentSchema,
  otpRecoveryBodySchema,
  otpRecoveryCodesSchema,
  otpStatusSchema,
  selfUpdateBodySchema,
  selfViewSchema,
} from '@hearth/contract/accounts';
import type { App } from '../../app-types';
import { currentUser } from '../../plugins/auth';
import type { SelfService } from './self.service';

const tags = ['self'];
const auth = { permission: 'authenticated' } as const;
/** Changing the account itself needs a login session: an OAuth2 token is refused (docs/security.md). */
const sessionOnly = { permission: 'authenticated', sessionOnly: true } as const;

export function selfRoutes(app: App, self: SelfService): void {
  app.get('/api/self', {
    config: auth,
    schema: { tags, response: { 200: selfViewSchema } },
    handler: async (req) => {
      const u = await self.me(currentUser(req).userId);
      const recoveryCodesLeft = await self.recoveryCodesLeft(u);
      return {
        id: u.id,
        username: u.username,
        email: u.email,
        otpEnabled: u.otp_enabled === 1,
        recoveryCodesLeft,
      };
    },
  });

  app.put('/api/self', {
    config: sessionOnly,
    schema: { tags, body: selfUpdateBodySchema },
    handler: async (req, reply) => {
      await self.update(currentUser(req), req.body);
      return reply.status(204).send();
    },
  });

  app.get('/api/self/otp', {
    config: auth,
    schema: { tags, response: { 200: otpStatusSchema } },
    handler: async (req) => ({ otpEnabled: (await self.me(currentUser(req).userId)).otp_enabled === 1 }),
  });

  app.post('/api/self/otp', {
    config: sessionOnly,
    schema: { tags, response: { 200: otpEnrolmentSchema } },
    handler: (req) => self.startOtp(currentUser(req).userId),
  });

  app.put('/api/self/otp', {
    config: sessionOnly,
    schema: {
      tags,
      querystring: otpConfirmQuerySchema,
      body: otpConfirmBodySchema,
      response: { 200: otpRecoveryCodesSchema, 204: z.null() },
    },
    handler: async (req, reply) => {
      const recoveryCodes = await self.confirmOtp(currentUser(req).userId, req.body.token);
      if (req.query.recoveryCodes === 'true') return { recoveryCodes };
      return reply.code(204).send(null);
    },
  });

  app.post('/api/self/otp/recovery', {
    config: sessionOnly,
    schema: { tags, body: otpRecoveryBodySchema, response: { 200: otpRecoveryCodesSchema } },
    handler: async (req) => ({
      recoveryCodes: await self.regenerateRecoveryCodes(
        currentUser(req).userId,
        req.body.password,
        req.body.token,
      ),
    }),
  });

  app.delete('/api/self/otp/:token', {
    config: sessionOnly,
    schema: { tags, params: z.strictObject({ token: z.string().max(16) }) },
    handler: async (req, reply) => {
      await self.disableOtp(currentUser(req).userId, req.params.token);
      return reply.status(204).send();
    },
  });
}
