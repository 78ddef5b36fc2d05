/**
 * `spongeforgedl` (PufferPanel v2): asks Sponge's download API for the newest SpongeForge build
 * (`recommended` = stable builds only), downloads the Forge installer it depends on to `forge-installer.jar`
 * and the SpongeForge jar to `mods/_aspongeforge.jar` (SHA-1 verified).
 */
import { AppError, type ProcessorOf } from '@hearth/contract';
import { z } from 'zod';
import type { ProcessorContext } from './context';
import { fetchToFile } from './fetch-to-file';
import { downloadForgeInstaller } from './forgedl';
import { fetchShaped, joinUrl } from './upstream-json';

const downloadsSchema = z.array(
  z.object({
    version: z.string(),
    dependencies: z.object({ forge: z.string(), minecraft: z.string() }),
    artifacts: z.record(z.string(), z.object({ url: z.string(), sha1: z.string().optional() })),
  }),
);

export async function runSpongeforgedl(
  step: ProcessorOf<'spongeforgedl'>,
  ctx: ProcessorContext,
): Promise<void> {
  const query = step.releaseType === 'recommended' ? '?type=stable&limit=1' : '?limit=1';
  const url = joinUrl(ctx.upstream.spongeApiUrl, `v1/org.spongepowered/spongeforge/downloads${query}`);
  const builds = await fetchShaped(url, downloadsSchema, ctx);
  const build = builds[0];
  const artifact = build?.artifacts[''];
  if (!build || !artifact)
    throw new AppError('ErrDownloadRefused', { url, reason: 'no SpongeForge build listed' });
  ctx.say('sponge.build', { version: build.version, minecraft: build.dependencies.minecraft });
  const forge = `${build.dependencies.minecraft}-${build.dependencies.forge}`;
  await downloadForgeInstaller(forge, 'forge-installer.jar', ctx);
  await ctx.sandbox.mkdirp('mods');
  await fetchToFile(artifact.url, 'mods/_aspongeforge.jar', ctx, artifact.sha1);
}
