/** Streams a URL into a sandboxed file with a size limit, progress lines and an optional SHA-1 check. */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { AppError } from '@hearth/contract';
import { httpGet } from './http-client';
import type { ProcessorContext } from './context';

const MiB = 1024 * 1024;

function meter(url: string, total: number, ctx: ProcessorContext, hash: ReturnType<typeof createHash>) {
  let received = 0;
  let nextReport = total > 0 ? total / 4 : 8 * MiB;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      hash.update(chunk);
      if (received > ctx.http.maxBytes) {
        return done(
          new AppError('ErrDownloadRefused', { url, reason: `larger than ${ctx.http.maxBytes} bytes` }),
        );
      }
      if (received >= nextReport) {
        const mib = (received / MiB).toFixed(1);
        if (total > 0)
          ctx.say('download.receivedPercent', { mib, percent: Math.floor((received / total) * 100) });
        else ctx.say('download.received', { mib });
        nextReport += total > 0 ? total / 4 : 8 * MiB;
      }
      done(null, chunk);
    },
  });
}

/** `targetOf` is a sandbox path, or names the file from the final URL (after redirects). */
export async function fetchToFile(
  url: string,
  targetOf: string | ((finalUrl: string) => string),
  ctx: ProcessorContext,
  expectedSha1?: string,
): Promise<void> {
  const { response: res, url: finalUrl } = await httpGet(url, ctx.http, ctx.signal);
  const target = typeof targetOf === 'string' ? targetOf : targetOf(finalUrl);
  ctx.say('step.download', { url: finalUrl, target });
  const total = Number(res.headers['content-length'] ?? 0) || 0;
  const hash = createHash('sha1');
  const metered = meter(url, total, ctx, hash);
  res.on('error', (err) => metered.destroy(err)); // pipe() does not forward source errors
  await ctx.sandbox.writeStreamAtomic(target, res.pipe(metered), () => {
    const digest = hash.digest('hex');
    if (expectedSha1 && digest !== expectedSha1.toLowerCase()) {
      throw new AppError('ErrDownloadRefused', {
        url,
        reason: `SHA-1 ${digest} does not match ${expectedSha1}`,
      });
    }
  });
  if (expectedSha1) ctx.say('step.savedVerified', { target });
  else ctx.say('step.saved', { target });
}

/** The file name a URL points at (last path segment), for `download` steps. */
export function fileNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  if (!name || name === '.' || name === '..' || name.includes('\0')) {
    throw new AppError('ErrDownloadRefused', { url, reason: 'the URL names no file' });
  }
  return name;
}
