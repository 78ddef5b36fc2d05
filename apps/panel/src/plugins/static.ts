import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import type { App } from '../app-types';
import { markPublic } from './public-scope';

/** Paths that belong to machines: an unknown one is a 404 JSON error, never the web app. */
const API_PREFIXES = ['/api', '/auth', '/oauth2', '/proxy', '/daemon', '/swagger', '/theme', '/metrics'];

/** Web pages that live under /auth (their API twins are POST-only, so a GET is always the page). */
const WEB_AUTH_PAGES = new Set([
  '/auth/login',
  '/auth/register',
  '/auth/invite',
  '/auth/setup',
  '/auth/reset',
]);

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (WEB_AUTH_PAGES.has(path.replace(/\/+$/, ''))) return false;
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

const MISSING_BUILD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hearth</title></head>
<body><h1>Hearth</h1><p>The web app is not built yet. Run <code>npm run build</code>, then reload.</p></body></html>`;

/** Hearth's web app: static files plus the history-mode fallback (unknown non-API GET → index.html). */
export async function registerWebApp(app: App, root: string): Promise<void> {
  const built = existsSync(join(root, 'index.html'));
  if (built) {
    await app.register(markPublic(fastifyStatic), {
      root,
      wildcard: true,
      index: ['index.html'],
      setHeaders: (res, path) => {
        const hashed = path.includes(`${join(root, 'assets')}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.url)) {
      throw new AppError('ErrNotFound');
    }
    reply.header('Cache-Control', 'no-cache');
    if (!built) return reply.type('text/html; charset=utf-8').send(MISSING_BUILD);
    return reply.sendFile('index.html');
  });
}
