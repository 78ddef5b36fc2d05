/** Parsing a definition from the wire or disk: one catalogued 400 naming the first bad field. */
import { AppError, templateSchema, type Template } from '@hearth/contract';
import { splitCommandLine } from '../server/command-line';
import { assertVariableTypes, substitute, substitutionsFor } from '../server/variables';

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
  // Refuse an unsplittable command now rather than at the first start.
  splitCommandLine(substitute(definition.run.command, substitutionsFor(definition, 'x', '/')));
  return definition;
}
