/** `fabricdl`: downloads the newest stable Fabric installer listed by Fabric's meta API to `targetFile`. */
import { AppError, type ProcessorOf } from '@hearth/contract';
import { z } from 'zod';
import type { ProcessorContext } from './context';
import { fetchToFile } from './fetch-to-file';
import { fetchShaped, joinUrl } from './upstream-json';

const installersSchema = z.array(
  z.object({ url: z.string(), version: z.string(), stable: z.boolean().optional() }),
);

export async function runFabricdl(step: ProcessorOf<'fabricdl'>, ctx: ProcessorContext): Promise<void> {
  const url = joinUrl(ctx.upstream.fabricMetaUrl, 'v2/versions/installer');
  const installers = await fetchShaped(url, installersSchema, ctx);
  const chosen = installers.find((i) => i.stable !== false) ?? installers[0];
  if (!chosen) throw new AppError('ErrDownloadRefused', { url, reason: 'no Fabric installer listed' });
  ctx.say('fabric.installer', { version: chosen.version });
  await fetchToFile(chosen.url, step.targetFile, ctx);
}
