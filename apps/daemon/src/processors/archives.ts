/**
 * The `extract` and `archive` processors: the same code as the file API (filesystem/archive), so the same
 * zip-slip, link and bomb protection applies to templates. Limits are the config defaults unless the
 * context carries the daemon's own (`files.*`).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessorOf } from '@hearth/contract';
import { createZip } from '../filesystem/archive/create-zip';
import { extractArchive, type ExtractOptions } from '../filesystem/archive/extract';
import type { ProcessorContext } from './context';

const defaults: ExtractOptions = {
  maxBytes: 4 * 1024 * 1024 * 1024,
  maxEntries: 100_000,
  // mkdtemp below it makes a 0700 folder: other users of /tmp cannot reach into it.
  stagingDir: join(tmpdir(), 'hearth-daemon-staging'),
};

export async function runExtract(
  step: ProcessorOf<'extract'>,
  ctx: ProcessorContext & { extract?: ExtractOptions },
): Promise<void> {
  const destination = step.destination || step.source.split('/').slice(0, -1).join('/');
  const report = await extractArchive(ctx.sandbox, step.source, destination, ctx.extract ?? defaults);
  ctx.log(
    `Extracted ${step.source}: ${report.files} files, ${report.folders} folders, ${report.bytes} bytes`,
  );
  for (const skipped of report.skipped.slice(0, 20)) ctx.log(`Skipped ${skipped.name}: ${skipped.reason}`);
}

export async function runArchive(step: ProcessorOf<'archive'>, ctx: ProcessorContext): Promise<void> {
  const name = await createZip(ctx.sandbox, step.destination, step.source);
  ctx.log(`Archived ${step.source.join(', ')} into ${name}`);
}
