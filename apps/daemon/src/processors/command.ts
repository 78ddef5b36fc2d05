import { AppError, type ProcessorOf } from '@hearth/contract';
import type { ProcessorContext } from './context';

/**
 * `command`: each line runs in the server folder through the server's environment; non-zero exit fails. Lines
 * arrive unsubstituted (substituteDeep leaves them): runCommand splits each, then substitutes per argument
 * (server/command-argv.ts), so a variable never adds arguments or shell syntax.
 */
export async function runCommandStep(step: ProcessorOf<'command'>, ctx: ProcessorContext): Promise<void> {
  for (const line of step.commands) {
    ctx.say('step.command', { command: line });
    const exit = await ctx.runCommand(line);
    if (exit.code !== 0) {
      const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
      throw new AppError('ErrProcessorFailed', { step: 0, type: 'command', reason: `'${line}' ${how}` });
    }
  }
}
