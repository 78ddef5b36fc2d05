import { isKnownProcessorType } from '../template-processors';
import { isObject, toStringList, type JsonObject } from './json';

/** Fields that PufferPanel accepted as a single string but that are lists. */
const LIST_FIELDS = ['files', 'commands'] as const;

/** Missing type means `command`; `files`/`commands` given as text become one-item lists. */
export function normalizeProcessor(step: unknown): unknown {
  if (!isObject(step)) return step;
  const out: JsonObject = { ...step };
  if (out.type === undefined || out.type === '') out.type = 'command';
  for (const field of LIST_FIELDS) {
    if (typeof out[field] === 'string') out[field] = toStringList(out[field]);
  }
  return out;
}

/** A list stays a list (each step normalised); anything else is left for the schema to reject. */
export function normalizeSteps(value: unknown): unknown {
  return Array.isArray(value) ? value.map(normalizeProcessor) : value;
}

function stepTypes(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((step) => (isObject(step) && typeof step.type === 'string' ? [step.type] : []));
}

/** Unknown processor types in every step list of a template, each named once, in order of appearance. */
export function unknownProcessors(template: JsonObject): string[] {
  const run = isObject(template.run) ? template.run : {};
  const all = [template.install, template.uninstall, run.pre, run.post].flatMap(stepTypes);
  return [...new Set(all.filter((type) => !isKnownProcessorType(type)))];
}
