/**
 * Install / pre / post processors of the template format.
 * Known types are validated strictly (a missing field is reported by name). Unknown types (e.g. `javadl`,
 * `steamgamedl` from imported templates) still parse, keeping every field, so nothing is lost on a round
 * trip; the daemon refuses to run them with `ErrUnknownProcessor`.
 */
import { z } from 'zod';

const requiredText = z.string().min(1);
/** A single string is accepted where a list is expected (PufferPanel templates use both). */
const stringList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(requiredText).min(1));

export const knownProcessorSchemas = {
  download: z.object({ type: z.literal('download'), files: stringList }),
  command: z.object({ type: z.literal('command'), commands: stringList }),
  alterfile: z.object({
    type: z.literal('alterfile'),
    file: requiredText,
    regex: z.boolean().default(true),
    search: requiredText,
    replace: z.string().default(''),
  }),
  writefile: z.object({ type: z.literal('writefile'), target: requiredText, text: z.string().default('') }),
  move: z.object({ type: z.literal('move'), source: requiredText, target: requiredText }),
  mkdir: z.object({ type: z.literal('mkdir'), target: requiredText }),
  mojangdl: z.object({ type: z.literal('mojangdl'), version: requiredText, target: requiredText }),
  forgedl: z.object({ type: z.literal('forgedl'), version: requiredText, filename: requiredText }),
  spongeforgedl: z.object({
    type: z.literal('spongeforgedl'),
    releaseType: z.enum(['recommended', 'latest']).default('recommended'),
  }),
  fabricdl: z.object({
    type: z.literal('fabricdl'),
    targetFile: requiredText.default('fabric-installer.jar'),
  }),
  /** Unpacks an archive in the server folder (empty destination = the archive's folder). */
  extract: z.object({
    type: z.literal('extract'),
    source: requiredText,
    destination: z.string().default(''),
  }),
  /** Zips paths of the server folder into `destination` (taken names get ` (2)`, ` (3)`…). */
  archive: z.object({ type: z.literal('archive'), source: stringList, destination: requiredText }),
} as const;

export type KnownProcessorType = keyof typeof knownProcessorSchemas;
export const knownProcessorTypes = Object.keys(knownProcessorSchemas) as KnownProcessorType[];
export type KnownProcessor = {
  [K in KnownProcessorType]: z.infer<(typeof knownProcessorSchemas)[K]>;
}[KnownProcessorType];
export type ProcessorOf<K extends KnownProcessorType> = z.infer<(typeof knownProcessorSchemas)[K]>;
/** A processor of a type this version does not know; fields are kept verbatim. */
export type UnknownProcessor = { type: string; [field: string]: unknown };
export type Processor = KnownProcessor | UnknownProcessor;

export function isKnownProcessorType(type: string): type is KnownProcessorType {
  return Object.hasOwn(knownProcessorSchemas, type);
}

export function isKnownProcessor(p: Processor): p is KnownProcessor {
  return isKnownProcessorType(p.type);
}

/** forgedl's field is `filename` in SPEC, `target` in the PufferPanel server code: accept both. */
function applyAliases(value: Record<string, unknown>): Record<string, unknown> {
  if (value.type === 'forgedl' && value.filename === undefined && typeof value.target === 'string') {
    const { target, ...rest } = value;
    return { ...rest, filename: target };
  }
  return value;
}

export const processorSchema = z
  .looseObject({ type: z.string().min(1).default('command') })
  .transform((value, ctx): Processor => {
    if (!isKnownProcessorType(value.type)) return value;
    const result = knownProcessorSchemas[value.type].safeParse(applyAliases(value));
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
    }
    return z.NEVER;
  });

/** 1.x templates wrap lists as `{"commands": [...]}`; unwrap so they parse too. */
function unwrapLegacyList(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const commands = (v as { commands?: unknown }).commands;
  return Array.isArray(commands) ? commands : v;
}

export const processorListSchema = z.preprocess(unwrapLegacyList, z.array(processorSchema));
export type ProcessorList = z.infer<typeof processorListSchema>;
