import type { FastifyServerOptions } from 'fastify';
import type { PanelConfig } from './config/schema';

/** Anything pino can write its lines to (a stream, or the CLI's console formatter). */
export interface LogDestination {
  write(line: string): void;
}

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

/**
 * One line per request is noise at the default level: on with `log.accessLog`, or at level debug or trace
 * (docs/configuration.md).
 */
export function accessLogOn(log: Pick<PanelConfig['log'], 'level' | 'accessLog'>): boolean {
  return log.accessLog || log.level === 'debug' || log.level === 'trace';
}

export function loggerOptions(config: PanelConfig, stream?: LogDestination): FastifyServerOptions['logger'] {
  return {
    name: 'panel',
    level: config.log.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}
