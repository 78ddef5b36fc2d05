import { templateSchema, type Template } from '@hearth/contract';
import { looksLikeV1 } from '@hearth/contract/template-convert/detect';
import { convertTemplate } from '@hearth/contract/template-convert/index';
import { isObject } from '@hearth/contract/template-convert/json';

/** The JSON view's text for the editor's template: two-space JSON, as stored. */
export function toJsonText(template: Template): string {
  return JSON.stringify(template, null, 2);
}

export type JsonParse =
  | { kind: 'ok'; template: Template }
  /** Looks like PufferPanel 1.x: the editor offers conversion before using it. */
  | { kind: 'v1'; raw: Record<string, unknown> }
  | { kind: 'invalid'; messageKey: string; field?: string };

/** Editor ← JSON: the same schema as the panel, so switching views loses nothing the panel would keep. */
export function fromJsonText(text: string): JsonParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'invalid', messageKey: 'errors.ErrInvalidJson' };
  }
  if (!isObject(raw)) return { kind: 'invalid', messageKey: 'errors.ErrInvalidJson' };
  if (looksLikeV1(raw)) return { kind: 'v1', raw };
  return parseTemplate(raw);
}

/** Validates an object with the contract schema, naming the first bad field. */
export function parseTemplate(raw: unknown): JsonParse {
  const result = templateSchema.safeParse(raw);
  if (result.success) return { kind: 'ok', template: result.data };
  const field = result.error.issues[0]?.path.map(String).join('.') ?? '';
  return { kind: 'invalid', messageKey: 'templates.json.invalidField', field };
}

/** Accepting the 1.x prompt: the contract's converter, then the schema. */
export function convertV1Text(raw: Record<string, unknown>): JsonParse {
  return parseTemplate(convertTemplate(raw).template);
}
