/**
 * Runs a list of processors (install, pre, post) in order. Each step is `${}`-substituted, then dispatched
 * by type; the first failure aborts with a console line naming the step and a catalogued error.
 */
import {
  AppError,
  isAppError,
  isKnownProcessor,
  type KnownProcessor,
  type KnownProcessorType,
  type Processor,
  type ProcessorOf,
} from '@hearth/contract';
import type { DaemonPhase } from '@hearth/contract/daemon-messages';
import { substituteDeep, type Substitutions } from '../server/variables';
import { runCommandStep } from './command';
import type { ProcessorContext } from './context';
import { runDownload } from './download';
import { runFabricdl } from './fabricdl';
import { runAlterfile, runMkdir, runMove, runWritefile } from './files';
import { runForgedl } from './forgedl';
import { runArchive, runExtract } from './archives';
import { runMojangdl } from './mojangdl';
import { runSpongeforgedl } from './spongeforgedl';

type Runners = { [K in KnownProcessorType]: (step: ProcessorOf<K>, ctx: ProcessorContext) => Promise<void> };

const runners: Runners = {
  download: runDownload,
  command: runCommandStep,
  alterfile: runAlterfile,
  writefile: runWritefile,
  move: runMove,
  mkdir: runMkdir,
  mojangdl: runMojangdl,
  forgedl: runForgedl,
  spongeforgedl: runSpongeforgedl,
  fabricdl: runFabricdl,
  extract: runExtract,
  archive: runArchive,
};

/** Runs one (already substituted) step; used by runProcessors and by tasks. */
export function dispatch(step: KnownProcessor, ctx: ProcessorContext): Promise<void> {
  const run = runners[step.type] as (s: KnownProcessor, c: ProcessorContext) => Promise<void>;
  return run(step, ctx);
}

/** Refuses a list holding a type this daemon cannot run, before anything is done. */
export function assertRunnable(steps: Processor[]): void {
  const unknown = steps.find((s) => !isKnownProcessor(s));
  if (unknown) throw new AppError('ErrUnknownProcessor', { type: unknown.type });
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function runProcessors(
  phase: DaemonPhase,
  steps: Processor[],
  values: Substitutions,
  ctx: ProcessorContext,
): Promise<void> {
  assertRunnable(steps);
  for (const [index, raw] of steps.entries()) {
    const step = substituteDeep(raw, values) as KnownProcessor;
    const where = { phase, index: index + 1, total: steps.length, type: step.type };
    if (ctx.signal.aborted) {
      // A kill that lands between steps (or before the first) is reported like one that lands during a step.
      const reason = 'aborted by a kill';
      ctx.say('phase.stepKilled', where);
      throw new AppError('ErrProcessorFailed', { step: index + 1, type: step.type, reason });
    }
    ctx.say('phase.step', where);
    try {
      await dispatch(step, ctx);
    } catch (err) {
      const reason = ctx.signal.aborted ? 'aborted by a kill' : reasonOf(err);
      if (ctx.signal.aborted) ctx.say('phase.stepKilled', where);
      else ctx.say('phase.stepFailed', { ...where, reason });
      const metadata = { step: index + 1, type: step.type, reason };
      throw new AppError('ErrProcessorFailed', metadata, {
        cause: err,
        status: isAppError(err) && err.status < 500 ? err.status : undefined,
      });
    }
  }
}
