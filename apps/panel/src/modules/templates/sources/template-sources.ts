import { readTemplate } from './read-template';
import type { ReadResult, SourceTemplate, TemplateFile, TemplateProblem, TemplateSource } from './types';

export interface SourcedProblem extends TemplateProblem {
  source: string;
}

export interface SourceScan {
  /** Templates that can be imported, one per name (the first source offering a name wins). */
  templates: SourceTemplate[];
  /** Files that cannot be imported, each with its precise reason. */
  problems: SourcedProblem[];
  /** Sources that could not be read at all (a repository that failed to clone, a missing folder). */
  sourceErrors: { source: string; error: string }[];
}

interface Located {
  source: TemplateSource;
  file: TemplateFile;
}

/**
 * All configured sources in priority order: the admin's own folder and repositories come before the bundled
 * set, so a name they provide is the one imported. `scan` reads everything; `find` serves single imports.
 */
export class TemplateSources {
  constructor(readonly sources: readonly TemplateSource[]) {}

  async scan(sourceId?: string): Promise<SourceScan> {
    const result: SourceScan = { templates: [], problems: [], sourceErrors: [] };
    const taken = new Map<string, string>();
    for (const source of this.selected(sourceId)) {
      const scan = await source.scan();
      if (scan.error !== undefined) result.sourceErrors.push({ source: source.id, error: scan.error });
      result.problems.push(...scan.problems.map((p) => ({ ...p, source: source.id })));
      for (const file of scan.files) {
        const owner = taken.get(file.name);
        if (owner !== undefined) {
          const reason = `template name '${file.name}' is already provided by ${owner}`;
          result.problems.push({ name: file.name, path: file.path, reason, source: source.id });
          continue;
        }
        taken.set(file.name, `${source.id}:${file.path}`);
        this.collect(result, readTemplate(source.id, file), source.id);
      }
    }
    return result;
  }

  /** The file behind an import name, from the given source or the first source that has it. */
  async find(name: string, sourceId?: string): Promise<ReadResult | undefined> {
    const wanted = name.toLowerCase();
    for (const source of this.selected(sourceId)) {
      const located = await this.locate(source, wanted);
      if (located) return readTemplate(located.source.id, located.file);
    }
    return undefined;
  }

  has(sourceId: string): boolean {
    return this.sources.some((s) => s.id === sourceId);
  }

  private selected(sourceId: string | undefined): readonly TemplateSource[] {
    return sourceId === undefined ? this.sources : this.sources.filter((s) => s.id === sourceId);
  }

  private async locate(source: TemplateSource, name: string): Promise<Located | undefined> {
    const scan = await source.scan();
    const file = scan.files.find((f) => f.name === name);
    return file ? { source, file } : undefined;
  }

  private collect(result: SourceScan, read: ReadResult, source: string): void {
    if (read.ok) result.templates.push(read.value);
    else result.problems.push({ ...read.problem, source });
  }
}
