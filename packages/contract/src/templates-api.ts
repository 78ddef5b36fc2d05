/**
 * Wire shapes of the templates API. The template itself is `templateSchema`
 * (./template); these are the list, import and warning payloads around it.
 * Response schemas here are plain (no transforms): the panel's serializer encodes with them, and the template
 * schema's normalising transforms only run one way.
 */
import { z } from 'zod';
import { type Template } from './template';

/** An id is the template's name: lower-case, as PufferPanel keys templates by name. */
export const templateIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, { message: 'lower-case letters, digits, dot, underscore or hyphen' });
export type TemplateId = z.infer<typeof templateIdSchema>;

export const templateWarningCodes = [
  'convertedFromV1',
  'conditionalCommands',
  'duplicateEnvironment',
  'unknownProcessor',
] as const;

/** Something an import changed or cannot run, e.g. processors Hearth does not run yet (named in `names`). */
export const templateWarningSchema = z.object({
  code: z.enum(templateWarningCodes),
  message: z.string(),
  names: z.array(z.string()).optional(),
});
export type TemplateWarning = z.infer<typeof templateWarningSchema>;

/** An environment as listed: its type, plus the docker fields when it is docker. */
export const environmentEntrySchema = z.looseObject({ type: z.enum(['docker', 'standard', 'tty']) });
export type EnvironmentEntry = z.infer<typeof environmentEntrySchema>;

/** One row of `GET /api/templates`. */
export const templateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  display: z.string(),
  type: z.string(),
  supportedEnvironments: z.array(environmentEntrySchema),
  warnings: z.array(templateWarningSchema),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

/** `GET /api/templates/{id}`: the template (`templateSchema`) plus its id and the warnings it carries. */
export const storedTemplateSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  warnings: z.array(templateWarningSchema),
});
export type StoredTemplate = Template & { id: string; name: string; warnings: TemplateWarning[] };

/**
 * How an importable template stands against the stored one with its id (docs/api.md § Import state):
 * `new` nothing stored; `current` the stored one is what the source offers; `newer` the source changed since
 * the import (a higher `version` when both carry one, else a different definition hash); `differs` stored but
 * not from this source's import (saved by hand, imported elsewhere or before Hearth recorded imports) and
 * different from it, or a source `version` lower than the imported one.
 */
export const importStates = ['new', 'current', 'newer', 'differs'] as const;
export type ImportState = (typeof importStates)[number];

/** A template a source offers for import, with its state against what is stored. */
export const importableTemplateSchema = z.object({
  name: z.string(),
  display: z.string(),
  type: z.string(),
  source: z.string(),
  path: z.string(),
  warnings: z.array(templateWarningSchema),
  state: z.enum(importStates),
  /** The source's `version` field, when the template carries one. */
  version: z.string().optional(),
  /** What the last import of this id recorded; absent when the stored template was never imported. */
  imported: z
    .object({
      source: z.string(),
      at: z.number(),
      version: z.string().optional(),
      /** The stored template was saved since that import: re-importing loses those edits. */
      editedSince: z.boolean(),
    })
    .optional(),
});
export type ImportableTemplate = z.infer<typeof importableTemplateSchema>;

/** A file a source holds that cannot be imported, with the precise reason. */
export const importProblemSchema = z.object({
  name: z.string(),
  source: z.string(),
  path: z.string(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** `POST /api/templates/import`: the importable names, as PufferPanel v2 answers (a plain JSON array). */
export const importNamesSchema = z.array(z.string());
export type ImportNames = z.infer<typeof importNamesSchema>;

/** `GET /api/templates/import/status`: what can be imported, what cannot and why, and sources that failed. */
export const importListSchema = z.object({
  templates: z.array(importableTemplateSchema),
  problems: z.array(importProblemSchema),
  sourceErrors: z.array(z.object({ source: z.string(), error: z.string() })),
});
export type ImportList = z.infer<typeof importListSchema>;

/**
 * `POST /api/templates/import/{name}?overwrite=`: absent or `true` replaces a stored template with that id, as
 * SPEC and PufferPanel do; `false` refuses with 409 `ErrDuplicateTemplateName` when one is stored (the web asks
 * first, then sends `true`).
 */
export const importQuerySchema = z.strictObject({
  source: z.string().min(1).max(100).optional(),
  overwrite: z.enum(['true', 'false']).optional(),
});
export type ImportQuery = z.infer<typeof importQuerySchema>;

/** `POST /api/templates/import/{name}`: the stored template's summary. */
export const importResultSchema = templateSummarySchema.extend({ source: z.string() });
export type ImportResult = z.infer<typeof importResultSchema>;
