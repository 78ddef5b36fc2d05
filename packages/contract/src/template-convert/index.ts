import { AppError } from '../errors';
import { detectFormat, type TemplateFormat } from './detect';
import { normalizeEnvironments } from './environments';
import { isObject, slugify, type JsonObject } from './json';
import { normalizeSteps, unknownProcessors } from './processors';
import { normalizeRun } from './run';
import { convertV1 } from './v1';
import { warning, type TemplateWarning } from './warnings';

export { detectFormat, looksLikeV1, type TemplateFormat } from './detect';
export { unknownProcessors } from './processors';
export type { TemplateWarning } from './warnings';

export interface ConversionResult {
  /** The template in Hearth's (PufferPanel v2) shape, not yet validated. */
  template: JsonObject;
  /** The generation the input was written in. */
  format: TemplateFormat;
  warnings: TemplateWarning[];
}

export interface ConvertOptions {
  /** The import name (file name); it wins over a name inside the JSON, as in PufferPanel. */
  name?: string;
}

function chooseName(template: JsonObject, given: string | undefined): string | undefined {
  if (given !== undefined) return given.toLowerCase();
  if (typeof template.name === 'string' && template.name !== '') return template.name;
  const fallback = typeof template.display === 'string' ? template.display : template.type;
  const slug = typeof fallback === 'string' ? slugify(fallback) : '';
  return slug === '' ? undefined : slug;
}

/**
 * Converts any PufferPanel template generation into one shape. Pure and idempotent:
 * converting the result again changes nothing, which the round-trip tests rely on.
 */
export function convertTemplate(raw: unknown, options: ConvertOptions = {}): ConversionResult {
  if (!isObject(raw)) throw new AppError('ErrInvalidJson');
  const format = detectFormat(raw);
  const warnings: TemplateWarning[] = [];
  const template = format === 'v1' ? convertV1(raw) : { ...raw };
  if (format === 'v1') warnings.push(warning('convertedFromV1'));

  const name = chooseName(template, options.name);
  if (name !== undefined) template.name = name;
  if ('install' in template) template.install = normalizeSteps(template.install);
  if ('uninstall' in template) template.uninstall = normalizeSteps(template.uninstall);
  const { run, droppedConditionalCommands } = normalizeRun(template.run);
  if (run !== undefined) template.run = run;
  if (droppedConditionalCommands) warnings.push(warning('conditionalCommands'));

  const dropped = normalizeEnvironments(template);
  if (dropped.length > 0) warnings.push(warning('duplicateEnvironment', dropped));
  const unknown = unknownProcessors(template);
  if (unknown.length > 0) warnings.push(warning('unknownProcessor', unknown));
  return { template, format, warnings };
}
