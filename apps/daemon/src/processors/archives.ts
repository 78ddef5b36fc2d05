/**
 * The `extract` and `archive` processors: the same code as the file API (filesystem/archive), so the same
 * zip-slip, link and bomb protection, the operator's `files.maxExtract*` limits and the data-dir staging of
 * 7-Zip formats (docs/files.md § Archives, ADR 0002) apply to templates.
 */
import type { ProcessorOf } from '@hearth/contract';
import { createZip } from '../filesystem/archive/create-zip';
import { extractArchive } from '../filesystem/archive/extract';
import type { ProcessorContext } from './context';

/**
 * A refused or failed extraction into a folder that did not exist leaves no folder behind: the limits are
 * judged before the first entry is written, so removing the folder it made undoes the step.
 */
async function extractOrUndo(step: ProcessorOf<'extract'>, ctx: ProcessorContext, destination: string) {
  const existed = destination === '' || (await ctx.sandbox.exists(destination));
  try {
    return await extractArchive(ctx.sandbox, step.source, destination, ctx.extract);
  } catch (err) {
    if (!existed) await ctx.sandbox.remove(destination).catch(() => undefined); // the step's error wins
    throw err;
  }
}

export async function runExtract(step: ProcessorOf<'extract'>, ctx: ProcessorContext): Promise<void> {
  const destination = step.destination || step.source.split('/').slice(0, -1).join('/');
  const report = await extractOrUndo(step, ctx, destination);
  const { files, folders, bytes } = report;
  ctx.say('step.extracted', { source: step.source, files, folders, bytes });
  for (const skipped of report.skipped.slice(0, 20))
    ctx.say('step.extractSkipped', { name: skipped.name, reason: skipped.reason });
}

export async function runArchive(step: ProcessorOf<'archive'>, ctx: ProcessorContext): Promise<void> {
  const name = await createZip(ctx.sandbox, step.destination, step.source);
  ctx.say('step.archived', { sources: step.source.join(', '), target: name });
}
