import type { FastifyServerOptions } from 'fastify';
import type { PanelConfig } from './config/schema';

/** Secrets never reach the logs, whatever object carries them. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.secret',
  '*.client_secret',
  '*.token',
  '*.session',
  '*.authorization',
  '*.cookie',
];

export function loggerOptions(
  config: PanelConfig,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: config.log.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}
