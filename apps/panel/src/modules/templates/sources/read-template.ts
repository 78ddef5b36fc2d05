import { isAppError, templateSchema } from '@hearth/contract';
import { loadTemplate, parseTemplateText } from '../template-io';
import type { ReadResult, TemplateFile } from './types';

function reasonOf(err: unknown, file: TemplateFile): string {
  if (!isAppError(err)) throw err;
  if (err.code === 'ErrInvalidJson') {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${file.path} is not valid JSON${cause}`;
  }
  const reason = typeof err.metadata?.reason === 'string' ? ` (${err.metadata.reason})` : '';
  return `${file.path}: ${err.message}${reason}`;
}

/** Converts and validates one file; a bad file becomes a problem naming the file and the field, never a throw. */
export function readTemplate(source: string, file: TemplateFile): ReadResult {
  try {
    const { template, warnings } = loadTemplate(parseTemplateText(file.text), { name: file.name });
    // Parsed again so the readme takes its place in the schema's key order: stored JSON stays canonical.
    const withReadme =
      file.readme === '' ? template : templateSchema.parse({ ...template, readme: file.readme });
    return { ok: true, value: { source, name: file.name, path: file.path, template: withReadme, warnings } };
  } catch (err) {
    return { ok: false, problem: { name: file.name, path: file.path, reason: reasonOf(err, file) } };
  }
}
