import { join, resolve } from 'node:path';
import { z } from 'zod';
import { checkRepository } from './sources/git';
import { bundledTemplatesDir, FolderSource } from './sources/folder-source';
import { GitSource } from './sources/git-source';
import { TemplateSources } from './sources/template-sources';
import type { TemplateSource } from './sources/types';

const repositorySchema = z
  .strictObject({
    name: z.string().min(1).max(64),
    url: z.string().min(1),
    branch: z.string().min(1).default('main'),
  })
  .superRefine((repo, ctx) => {
    const problem = checkRepository(repo.url, repo.branch);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['url'] });
  });

/**
 * The `templates` config section: where importable templates come from besides the bundled set.
 * e.g. `{"repositories":[{"name":"pufferpanel","url":"https://github.com/PufferPanel/templates","branch":"v2.6"}]}`
 */
export const templatesConfigSchema = z
  .strictObject({
    /** An extra folder in PufferPanel layout on the panel machine; empty means none. */
    localDir: z.string().default(''),
    repositories: z.array(repositorySchema).default([]),
    /** A repository is fetched again at most this often. */
    refreshMinutes: z.number().int().min(1).max(1440).default(5),
    /** Offer the starter set shipped with Hearth. */
    bundled: z.boolean().default(true),
  })
  .prefault({});

export type TemplatesConfig = z.infer<typeof templatesConfigSchema>;

/** Priority order: the admin's folder, then repositories in config order, then the bundled set. */
export function createTemplateSources(config: TemplatesConfig, dataDir: string): TemplateSources {
  const sources: TemplateSource[] = [];
  if (config.localDir !== '') sources.push(new FolderSource('local', resolve(config.localDir)));
  const cacheDir = join(dataDir, 'template-repos');
  const refreshMs = config.refreshMinutes * 60_000;
  for (const repo of config.repositories) sources.push(new GitSource(repo, { cacheDir, refreshMs }));
  if (config.bundled) sources.push(new FolderSource('bundled', bundledTemplatesDir));
  return new TemplateSources(sources);
}
