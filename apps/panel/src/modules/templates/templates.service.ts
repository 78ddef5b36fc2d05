import { AppError } from '@hearth/contract';
import type {
  ImportList,
  ImportResult,
  StoredTemplate,
  TemplateSummary,
} from '@hearth/contract/templates-api';
import { definitionHash, importStateOf } from './import-state';
import { loadTemplate } from './template-io';
import { toRow, toStored, toSummary } from './templates.presenter';
import type { TemplateImportRow, TemplateRow, TemplatesRepository } from './templates.repository';
import type { TemplateSources } from './sources/template-sources';
import type { SourceTemplate } from './sources/types';
import type { ActivityService } from '../activity/activity.service';

/** Per-template outcome of importing a whole source. */
export type ImportOutcome =
  { name: string; ok: true; result: ImportResult } | { name: string; ok: false; reason: string };

/** Business rules for templates: conversion and validation before anything is stored; imports from sources. */
export class TemplatesService {
  constructor(
    private readonly repo: TemplatesRepository,
    private readonly sources: TemplateSources,
    private readonly now: () => number = Date.now,
    /** The activity log (docs/activity.md): imports, saves and deletions are recorded. */
    private readonly activity?: ActivityService,
  ) {}

  async list(): Promise<TemplateSummary[]> {
    return (await this.repo.list()).map(toSummary);
  }

  async get(id: string): Promise<StoredTemplate> {
    const row = await this.repo.get(id);
    if (!row) throw new AppError('ErrNoTemplate', { name: id });
    return toStored(row);
  }

  /** Converts older formats, validates (400 naming the field), then stores under `id`, replacing any old one. */
  async save(id: string, body: unknown): Promise<StoredTemplate> {
    const { template, warnings } = loadTemplate(body, { name: id });
    const row = toRow(id, template, warnings, this.now());
    await this.repo.upsert(row);
    return toStored(row);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repo.delete(id))) throw new AppError('ErrNoTemplate', { name: id });
  }

  /** What the sources offer, each with its state against the stored template of that id (one query each). */
  async importable(source?: string): Promise<ImportList> {
    this.checkSource(source);
    const scan = await this.sources.scan(source);
    const stored = new Map(
      (await this.repo.list()).map((r) => [r.id, { hash: definitionHash(r.definition) }]),
    );
    const records = new Map((await this.repo.listImports()).map((r) => [r.template_id, r]));
    const templates = scan.templates.map((t) => {
      const offered = { source: t.source, hash: this.offeredRow(t).hash, version: t.template.version };
      return {
        name: t.name,
        display: t.template.display,
        type: t.template.type,
        source: t.source,
        path: t.path,
        warnings: t.warnings,
        ...(t.template.version !== undefined ? { version: t.template.version } : {}),
        ...importStateOf(offered, stored.get(t.name), records.get(t.name)),
      };
    });
    return { templates, problems: scan.problems, sourceErrors: scan.sourceErrors };
  }

  /** The PufferPanel v2 answer: importable names, each once (a name several sources offer imports the first). */
  async importableNames(source?: string): Promise<string[]> {
    const list = await this.importable(source);
    return [...new Set(list.templates.map((t) => t.name))];
  }

  /**
   * Imports one template by name; a broken file is a 400 with its reason. A stored template with that id is
   * replaced (SPEC's import), unless `overwrite` is false: then 409 ErrDuplicateTemplateName and nothing changes.
   */
  async import(name: string, source?: string, overwrite = true): Promise<ImportResult> {
    this.checkSource(source);
    const found = await this.sources.find(name, source);
    if (!found) throw new AppError('ErrNoTemplate', { name });
    if (!found.ok) throw new AppError('ErrInvalidDefinition', { reason: found.problem.reason });
    const { row, record } = this.offeredRow(found.value);
    if (!(await this.repo.storeImport(row, record, overwrite))) {
      throw new AppError('ErrDuplicateTemplateName', { name: found.value.name });
    }
    const from = found.value.source;
    await this.activity?.here('template.imported', { details: { name: found.value.name, source: from } });
    return { ...toSummary(row), source: from };
  }

  /** Imports everything a source offers, template by template: each one succeeds or fails with its reason. */
  async importAll(source?: string): Promise<ImportOutcome[]> {
    this.checkSource(source);
    const scan = await this.sources.scan(source);
    const outcomes: ImportOutcome[] = scan.problems.map((p) => ({
      name: p.name,
      ok: false,
      reason: p.reason,
    }));
    for (const found of scan.templates) {
      const { row, record } = this.offeredRow(found);
      await this.repo.storeImport(row, record, true);
      await this.activity?.here('template.imported', { details: { name: found.name, source: found.source } });
      outcomes.push({ name: found.name, ok: true, result: { ...toSummary(row), source: found.source } });
    }
    return outcomes;
  }

  /** The row an import of `found` stores, the import record beside it, and the hash both share. */
  private offeredRow(found: SourceTemplate): { row: TemplateRow; record: TemplateImportRow; hash: string } {
    const now = this.now();
    const row = toRow(found.name, found.template, found.warnings, now);
    const hash = definitionHash(row.definition);
    const record = {
      template_id: found.name,
      source: found.source,
      definition_hash: hash,
      version: found.template.version ?? null,
      imported_at: now,
    };
    return { row, record, hash };
  }

  private checkSource(source: string | undefined): void {
    if (source !== undefined && !this.sources.has(source)) {
      throw new AppError('ErrFieldInvalidOption', {
        field: 'source',
        options: this.sources.sources.map((s) => s.id),
      });
    }
  }
}
