/**
 * Cross-site request refusal (docs/security.md § Cross-site requests). The session cookie is SameSite=Strict, but
 * "site" is the registrable domain: a page on another port of the same host or on a sibling subdomain (a game
 * server's own web page) is same-site, so its forms and fetches still carry the cookie. Browsers always send
 * `Origin` on state-changing requests and on websocket upgrades, and a page cannot forge it, so:
 * - a state-changing request (not GET/HEAD/OPTIONS) that carries the cookie and no `Authorization` header must
 *   come with the panel's own `Origin`;
 * - a websocket upgrade with an `Origin` must name the panel's own (no `Origin` = not a browser; its token alone
 *   decides).
 * The panel's own origin is the request's scheme://host as the panel sees it (X-Forwarded-* only with
 * `web.trustProxy`) or the origin of the `masterUrl` setting (a proxy that rewrites Host).
 * The web app sends the bearer header on API calls and uploads; its websocket carries the cookie and its Origin.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import type { SettingsService } from '../modules/settings/settings.service';
import { SESSION_COOKIE_NAME } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginDeps {
  settings: Pick<SettingsService, 'effective'>;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

function isWebsocketUpgrade(req: FastifyRequest): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** What the request must prove: nothing, or a matching Origin when `required` (absent counts as foreign). */
function originRule(req: FastifyRequest): { check: boolean; required: boolean } {
  if (isWebsocketUpgrade(req)) return { check: req.headers.origin !== undefined, required: false };
  if (SAFE_METHODS.has(req.method) || req.headers.authorization !== undefined) {
    return { check: false, required: false };
  }
  // Without the cookie nothing ambient authenticates the request: the token check alone decides.
  const cookieOnly = Boolean(req.cookies[SESSION_COOKIE_NAME]);
  return { check: cookieOnly, required: cookieOnly };
}

async function isOwnOrigin(req: FastifyRequest, origin: string, deps: OriginDeps): Promise<boolean> {
  const claimed = originOf(origin);
  if (claimed === null) return false;
  if (claimed === originOf(`${req.protocol}://${req.host}`)) return true;
  const master = (await deps.settings.effective())['panel.settings.masterUrl'];
  return typeof master === 'string' && master !== '' && claimed === originOf(master);
}

/** Throws 403 ErrCrossSiteRequest when the request may come from another site's page. */
export async function checkOrigin(req: FastifyRequest, deps: OriginDeps): Promise<void> {
  const rule = originRule(req);
  if (!rule.check) return;
  const origin = req.headers.origin;
  if (origin === undefined && !rule.required) return;
  if (origin !== undefined && (await isOwnOrigin(req, origin, deps))) return;
  throw new AppError('ErrCrossSiteRequest');
}
