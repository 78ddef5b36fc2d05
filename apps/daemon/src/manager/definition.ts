/**
 * A definition from disk is parsed here, one from the wire by its route's schema (docs/daemon.md); both are then
 * checked beyond their shape. A bad one is one catalogued 400 naming the first bad field.
 */
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
  return checkDefinition(result.data);
}

/**
 * What templateSchema cannot say of a definition (one already parsed by it, e.g. a request body the route
 * validated): variable values of their types, and a run command that splits into arguments.
 */
export function checkDefinition(definition: Template): Template {
  assertVariableTypes(definition);
  // Refuse an unsplittable command (or a shell script a value cannot be quoted into) now, not at the first start.
  argvOf(definition.run.command, definition, substitutionsFor(definition, 'x', '/'));
  return definition;
}
