/**
 * Engine failures as catalogued errors: engine unreachable → ErrDockerNotAvailable, socket permission →
 * ErrDockerPermission, port taken → ErrDockerPortAllocated, missing image → ErrDockerImageMissing.
 * Anything else is ErrServerStartFailed carrying the engine's message.
 */
import { AppError, isAppError } from '@hearth/contract';

interface EngineError {
  code?: string;
  statusCode?: number;
  message?: string;
  json?: { message?: string } | null;
}

function messageOf(err: EngineError): string {
  return err.json?.message ?? err.message ?? 'unknown engine error';
}

export function dockerErrorOf(err: unknown, image?: string): AppError {
  if (isAppError(err)) return err;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as EngineError;
  const message = messageOf(e);
  if (e.code === 'EACCES' || e.code === 'EPERM')
    return new AppError('ErrDockerPermission', {}, { cause: err });
  if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED' || e.code === 'ENOTSOCK') {
    return new AppError(
      'ErrDockerNotAvailable',
      { reason: `engine not running (${e.code})` },
      { cause: err },
    );
  }
  const port =
    /(?:Bind for [^ ]*?:(\d+) failed: port is already allocated|:(\d+): bind: address already in use)/.exec(
      message,
    );
  if (port)
    return new AppError('ErrDockerPortAllocated', { port: port[1] ?? port[2] ?? '?' }, { cause: err });
  if (image && e.statusCode === 404 && /image|repository|manifest/i.test(message)) {
    return new AppError('ErrDockerImageMissing', { image }, { cause: err });
  }
  return new AppError('ErrServerStartFailed', { reason: `Docker: ${message}` }, { cause: err });
}
