/** The file processors: alterfile, writefile, move, mkdir. All paths go through the sandbox. */
import { AppError, type ProcessorOf } from '@hearth/contract';
import { basename } from 'node:path';
import type { ProcessorContext } from './context';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `alterfile`: replaces every match; in regex mode the pattern is multi-line and `$1` groups work. */
export async function runAlterfile(step: ProcessorOf<'alterfile'>, ctx: ProcessorContext): Promise<void> {
  let pattern: RegExp;
  try {
    pattern = new RegExp(step.regex ? step.search : escapeRegex(step.search), 'gm');
  } catch (err) {
    throw new AppError('ErrFieldInvalid', { field: 'search', reason: (err as Error).message });
  }
  const text = await ctx.sandbox.readText(step.file);
  const replace = step.regex ? step.replace : step.replace.replace(/\$/g, '$$$$');
  await ctx.sandbox.writeAtomic(step.file, text.replace(pattern, replace));
  ctx.say('step.altered', { file: step.file });
}

export async function runWritefile(step: ProcessorOf<'writefile'>, ctx: ProcessorContext): Promise<void> {
  await ctx.sandbox.writeAtomic(step.target, step.text);
  ctx.say('step.wrote', { target: step.target });
}

export async function runMkdir(step: ProcessorOf<'mkdir'>, ctx: ProcessorContext): Promise<void> {
  await ctx.sandbox.mkdirp(step.target);
  ctx.say('step.createdFolder', { target: step.target });
}

/** `move`: source may be a glob; several sources need an existing folder as target. */
export async function runMove(step: ProcessorOf<'move'>, ctx: ProcessorContext): Promise<void> {
  const sources = await ctx.sandbox.glob(step.source);
  if (sources.length === 0) throw new AppError('ErrFileNotFound', { path: step.source });
  let intoFolder = await ctx.sandbox.isDirectory(step.target);
  if (sources.length > 1 && !intoFolder) {
    // Several sources need a folder: create it, but never turn an existing file into one.
    if (await ctx.sandbox.exists(step.target)) throw new AppError('ErrNotADirectory', { path: step.target });
    await ctx.sandbox.mkdirp(step.target);
    intoFolder = true;
  }
  for (const source of sources) {
    const target = intoFolder ? `${step.target}/${basename(source)}` : step.target;
    await ctx.sandbox.move(source, target);
    ctx.say('step.moved', { source, target });
  }
}
