/**
 * `forgedl`: downloads the Forge installer `<maven>/net/minecraftforge/forge/<v>/forge-<v>-installer.jar`.
 * `version` is a full `<mc>-<forge>` version, or `<mc>-latest` / `<mc>-recommended`, resolved through the
 * Maven's `promotions_slim.json`. The Maven's `.sha1` file is used to verify the download when present.
 */
import { AppError, type ProcessorOf } from '@hearth/contract';
import { z } from 'zod';
import type { ProcessorContext } from './context';
import { fetchToFile } from './fetch-to-file';
import { httpGet } from './http-client';
import { fetchShaped, joinUrl } from './upstream-json';

const promotionsSchema = z.object({ promos: z.record(z.string(), z.string()) });
const FORGE_PATH = 'net/minecraftforge/forge';

export async function resolveForgeVersion(version: string, ctx: ProcessorContext): Promise<string> {
  const promo = /^(.+)-(latest|recommended)$/.exec(version);
  if (!promo) return version;
  const url = joinUrl(ctx.upstream.forgeMavenUrl, `${FORGE_PATH}/promotions_slim.json`);
  const { promos } = await fetchShaped(url, promotionsSchema, ctx);
  const forge = promos[version];
  if (!forge)
    throw new AppError('ErrFieldInvalid', { field: 'version', reason: `no Forge promotion ${version}` });
  return `${promo[1]}-${forge}`;
}

async function readSha1(url: string, ctx: ProcessorContext): Promise<string | undefined> {
  try {
    const { response: res } = await httpGet(`${url}.sha1`, { ...ctx.http, maxBytes: 1024 }, ctx.signal);
    let text = '';
    for await (const part of res as AsyncIterable<Buffer>) text += part.toString('utf8');
    return /^[0-9a-f]{40}/i.exec(text.trim())?.[0];
  } catch (err) {
    ctx.say('forge.noChecksum', { url, reason: (err as Error).message });
    return undefined;
  }
}

export async function downloadForgeInstaller(
  version: string,
  target: string,
  ctx: ProcessorContext,
): Promise<string> {
  const resolved = await resolveForgeVersion(version, ctx);
  const url = joinUrl(
    ctx.upstream.forgeMavenUrl,
    `${FORGE_PATH}/${resolved}/forge-${resolved}-installer.jar`,
  );
  await fetchToFile(url, target, ctx, await readSha1(url, ctx));
  return resolved;
}

export async function runForgedl(step: ProcessorOf<'forgedl'>, ctx: ProcessorContext): Promise<void> {
  const resolved = await downloadForgeInstaller(step.version, step.filename, ctx);
  ctx.say('forge.saved', { version: resolved, file: step.filename });
}
