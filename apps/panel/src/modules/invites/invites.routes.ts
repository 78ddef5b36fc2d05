import { inviteAcceptBodySchema, inviteBodySchema, inviteCreatedSchema } from '@hearth/contract/accounts';
import { sessionResponseSchema } from '@hearth/contract/auth';
import type { App } from '../../app-types';
import { setSessionCookie } from '../../plugins/session-cookie';
import type { InvitesService } from './invites.service';

export function invitesRoutes(app: App, invites: InvitesService): void {
  app.post('/api/users/invite', {
    config: { permission: 'editUsers' },
    schema: { tags: ['users'], body: inviteBodySchema, response: { 200: inviteCreatedSchema } },
    handler: async (req) => {
      // The link is answered once, so the inviter can hand it over when no mail went out (docs/security.md).
      const { id, email, expiresAt, link, mail } = await invites.invite(req.body.email, req.body.locale);
      return { id, email, expiresAt, link, mail };
    },
  });

  app.post('/auth/invite', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], body: inviteAcceptBodySchema, response: { 200: sessionResponseSchema } },
    handler: async (req, reply) => {
      const body = await invites.accept(req.body);
      setSessionCookie(req, reply, body.session);
      return body;
    },
  });
}
