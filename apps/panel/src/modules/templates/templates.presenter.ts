import { z } from 'zod';
import { templateSchema, type Template } from '@hearth/contract';
import {
  templateWarningSchema,
  type StoredTemplate,
  type TemplateSummary,
  type TemplateWarning,
} from '@hearth/contract/templates-api';
import type { TemplateRow } from './templates.repository';

const warningsSchema = z.array(templateWarningSchema);

/** Rows hold JSON written by this module; parsing again gives typed values (and survives schema defaults added later). */
export function definitionOf(row: TemplateRow): Template {
  return templateSchema.parse(JSON.parse(row.definition));
}

export function warningsOf(row: TemplateRow): TemplateWarning[] {
  return warningsSchema.parse(JSON.parse(row.warnings));
}

export function toSummary(row: TemplateRow): TemplateSummary {
  const template = definitionOf(row);
  return {
    id: row.id,
    name: row.id,
    display: template.display,
    type: template.type,
    supportedEnvironments: template.supportedEnvironments,
    warnings: warningsOf(row),
  };
}

export function toStored(row: TemplateRow): StoredTemplate {
  return { ...definitionOf(row), id: row.id, name: row.id, warnings: warningsOf(row) };
}

/** The row for a validated template; the id doubles as the name, as PufferPanel keys templates by name. */
export function toRow(id: string, template: Template, warnings: TemplateWarning[], now: number): TemplateRow {
  const { id: _id, name: _name, ...rest } = template;
  const definition = JSON.stringify(templateSchema.parse({ ...rest, name: id }));
  return {
    id,
    display: template.display.slice(0, 255),
    type: template.type.slice(0, 100),
    definition,
    warnings: JSON.stringify(warnings),
    created_at: now,
    updated_at: now,
  };
}
