import { inviteAcceptBody, inviteBody, inviteCreated } from '@hearth/contract/accounts';
import { sessionResponse } from '@hearth/contract/auth';
import type { App } from '../../app-types';
import { setSessionCookie } from '../../plugins/session-cookie';
import type { InvitesService } from './invites.service';

export function invitesRoutes(app: App, invites: InvitesService): void {
  app.post('/api/users/invite', {
    config: { permission: 'editUsers' },
    schema: { tags: ['users'], body: inviteBody, response: { 200: inviteCreated } },
    handler: async (req) => {
      const { id, email, expiresAt } = await invites.invite(req.body.email, req.body.locale);
      return { id, email, expiresAt }; // the token travels only in the e-mail
    },
  });

  app.post('/auth/invite', {
    config: { permission: 'public' },
    schema: { tags: ['auth'], body: inviteAcceptBody, response: { 200: sessionResponse } },
    handler: async (req, reply) => {
      const body = await invites.accept(req.body);
      setSessionCookie(req, reply, body.session);
      return body;
    },
  });
}
