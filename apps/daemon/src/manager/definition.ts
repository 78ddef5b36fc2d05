/** Parsing a definition from the wire or disk: one catalogued 400 naming the first bad field. */
import { AppError, templateSchema, type Template } from '@hearth/contract';
import { argvOf } from '../server/process-spec';
import { assertVariableTypes, substitutionsFor } from '../server/variables';

export function parseDefinition(raw: unknown): Template {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError('ErrInvalidDefinition', { reason: 'the body must be a JSON object', field: '(root)' });
  }
  const result = templateSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.map(String).join('.') || '(root)';
    throw new AppError('ErrInvalidDefinition', { reason: `${field}: ${issue?.message ?? 'invalid'}`, field });
  }
  const definition = result.data;
  assertVariableTypes(definition);
  // Refuse an unsplittable command (or a shell script a value cannot be quoted into) now, not at the first start.
  argvOf(definition.run.command, definition, substitutionsFor(definition, 'x', '/'));
  return definition;
}
