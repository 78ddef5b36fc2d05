import type { FastifyRequest } from 'fastify';
import type { Identity } from '../../app-types';
import type { ActivityActor } from './activity.service';

/**
 * The actor of a request: the signed-in user, or the OAuth2 client acting for its user (the entry keeps the
 * user's id, so a user's filter finds what their clients did too; the label names the client).
 */
export function actorOf(identity: Identity, ip: string): ActivityActor {
  if (identity.via === 'oauth2')
    return {
      type: 'oauth2',
      id: identity.userId,
      label: `${identity.username} (OAuth2 client ${identity.clientId ?? '?'})`,
      ip,
    };
  return { type: 'user', id: identity.userId, label: identity.username, ip };
}

/** The actor of a request, or an anonymous one (a failed login: nobody is signed in yet). */
export function requestActor(req: FastifyRequest): ActivityActor {
  return req.identity ? actorOf(req.identity, req.ip) : { type: 'user', id: null, label: '', ip: req.ip };
}
