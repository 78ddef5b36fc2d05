import { isObject, toStringList, type JsonObject } from './json';
import { normalizeSteps } from './processors';

/** Quoted like the contract's parser does, so an argument holding spaces stays one argument. */
function quoteArgument(arg: string): string {
  return /\s/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

/** `program` + `arguments` (1.x and early v2) become one `command` line, as PufferPanel's loader did. */
function joinLegacyCommand(run: JsonObject): void {
  if (typeof run.program !== 'string') return;
  const args = toStringList(run.arguments);
  const hasCommand = typeof run.command === 'string' && run.command !== '';
  if (!hasCommand)
    run.command = [run.program, ...args]
      .filter((part) => part !== '')
      .map(quoteArgument)
      .join(' ');
  delete run.program;
  delete run.arguments;
}

/**
 * v3 allows `command: [{command, if?}]`, picked at run time by a CEL condition Hearth does not evaluate.
 * The unconditional entry is what a plain host would run, so it is kept; the caller warns about the rest.
 */
function pickCommand(run: JsonObject): boolean {
  if (!Array.isArray(run.command)) return false;
  const entries = run.command.filter(isObject);
  const chosen = entries.find((entry) => !entry.if) ?? entries[0];
  run.command = chosen && typeof chosen.command === 'string' ? chosen.command : '';
  return entries.length > 1;
}

export interface RunResult {
  run: unknown;
  droppedConditionalCommands: boolean;
}

export function normalizeRun(value: unknown): RunResult {
  if (!isObject(value)) return { run: value, droppedConditionalCommands: false };
  const run: JsonObject = { ...value };
  joinLegacyCommand(run);
  const dropped = pickCommand(run);
  if ('pre' in run) run.pre = normalizeSteps(run.pre);
  if ('post' in run) run.post = normalizeSteps(run.post);
  return { run, droppedConditionalCommands: dropped };
}
