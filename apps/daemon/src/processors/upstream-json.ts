/** Reads an upstream JSON document and checks its shape, with a readable error naming the URL. */
import { AppError } from '@hearth/contract';
import type { z } from 'zod';
import type { ProcessorContext } from './context';
import { httpGetJson } from './http-client';

export async function fetchShaped<T extends z.ZodType>(
  url: string,
  schema: T,
  ctx: ProcessorContext,
): Promise<z.infer<T>> {
  const raw = await httpGetJson(url, ctx.http, ctx.signal);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unexpected shape';
    throw new AppError('ErrDownloadRefused', { url, reason: `unexpected answer (${where})` });
  }
  return parsed.data;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
