import { AppError, templateSchema, type Template } from '@hearth/contract';
import {
  convertTemplate,
  type ConvertOptions,
  type TemplateFormat,
  type TemplateWarning,
} from '@hearth/contract/template-convert/index';
import { parseWith } from './validate';

export interface LoadedTemplate {
  template: Template;
  format: TemplateFormat;
  warnings: TemplateWarning[];
}

/** Converts any PufferPanel generation, then validates with the contract schema (throws a 400 naming the field). */
export function loadTemplate(raw: unknown, options: ConvertOptions = {}): LoadedTemplate {
  const { template, format, warnings } = convertTemplate(raw, options);
  return { template: parseWith(templateSchema, template), format, warnings };
}

/** JSON text in; `ErrInvalidJson` when it is not JSON at all. */
export function parseTemplateText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError('ErrInvalidJson', undefined, { cause: err });
  }
}

/** The stored and exported form: stable key order comes from the schema's output, two-space indent. */
export function serializeTemplate(template: Template): string {
  return `${JSON.stringify(template, null, 2)}\n`;
}
