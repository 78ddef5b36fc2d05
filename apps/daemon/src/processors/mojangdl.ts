/**
 * `mojangdl`: resolves `latest`/`release` (latest release), `snapshot` (latest snapshot) or an exact id in
 * Mojang's version manifest, reads that version's document and downloads its server jar, verifying SHA-1.
 */
import { AppError, type ProcessorOf } from '@hearth/contract';
import { z } from 'zod';
import type { ProcessorContext } from './context';
import { fetchToFile } from './fetch-to-file';
import { fetchShaped } from './upstream-json';

const manifestSchema = z.object({
  latest: z.object({ release: z.string(), snapshot: z.string() }),
  versions: z.array(z.object({ id: z.string(), url: z.string() })),
});
const versionSchema = z.object({
  downloads: z.object({ server: z.object({ url: z.string(), sha1: z.string() }).optional() }),
});

function wantedId(version: string, latest: { release: string; snapshot: string }): string {
  if (version === 'latest' || version === 'release') return latest.release;
  if (version === 'snapshot') return latest.snapshot;
  return version;
}

export async function runMojangdl(step: ProcessorOf<'mojangdl'>, ctx: ProcessorContext): Promise<void> {
  const manifest = await fetchShaped(ctx.upstream.mojangManifestUrl, manifestSchema, ctx);
  const id = wantedId(step.version, manifest.latest);
  const entry = manifest.versions.find((v) => v.id === id);
  if (!entry)
    throw new AppError('ErrFieldInvalid', { field: 'version', reason: `Minecraft version ${id} not found` });
  ctx.say('minecraft.version', { version: id });
  const details = await fetchShaped(entry.url, versionSchema, ctx);
  const server = details.downloads.server;
  if (!server)
    throw new AppError('ErrFieldInvalid', { field: 'version', reason: `${id} has no server download` });
  await fetchToFile(server.url, step.target, ctx, server.sha1);
}
