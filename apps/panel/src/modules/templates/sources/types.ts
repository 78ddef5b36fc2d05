import type { Template } from '@hearth/contract';
import type { TemplateWarning } from '@hearth/contract/template-convert/index';

/** One template file found in a source, before conversion. */
export interface TemplateFile {
  name: string;
  /** Path inside the source, e.g. `minecraft/minecraft-vanilla.json`; names the file in error reasons. */
  path: string;
  text: string;
  readme: string;
}

/** A file the source found but cannot offer, with the precise reason (shown per template). */
export interface TemplateProblem {
  name: string;
  path: string;
  reason: string;
}

export interface FolderScan {
  files: TemplateFile[];
  problems: TemplateProblem[];
}

/** A template read from a source, converted and validated, ready to store. */
export interface SourceTemplate {
  source: string;
  name: string;
  path: string;
  template: Template;
  warnings: TemplateWarning[];
}

export type ReadResult = { ok: true; value: SourceTemplate } | { ok: false; problem: TemplateProblem };

/** Where importable templates come from: the bundled set, an extra folder, or a git repository. */
export interface TemplateSource {
  /** Stable id used in listings and `?source=`; e.g. `bundled`, `local`, `git:pufferpanel`. */
  readonly id: string;
  /** Reads every template file; a source that cannot be read reports that as `error`, never throws. */
  scan(): Promise<FolderScan & { error?: string }>;
}
