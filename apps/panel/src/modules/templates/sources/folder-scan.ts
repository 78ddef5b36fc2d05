import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderScan, TemplateFile, TemplateProblem } from './types';

/** PufferPanel keeps test scenarios beside templates in `data.json`; it is not a template. */
const NOT_TEMPLATES = new Set(['data.json']);
/** Larger files are refused rather than read: templates are a few kilobytes. */
export const MAX_TEMPLATE_BYTES = 512 * 1024;

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function readTemplateFile(root: string, folder: string, file: string): Promise<TemplateFile> {
  const name = file.slice(0, -'.json'.length).toLowerCase();
  const path = `${folder}/${file}`;
  const info = await stat(join(root, path));
  if (info.size > MAX_TEMPLATE_BYTES) throw new Error(`file is larger than ${MAX_TEMPLATE_BYTES} bytes`);
  const text = await readFile(join(root, path), 'utf8');
  const readme =
    (await readOptional(join(root, folder, `${name}.md`))) ??
    (await readOptional(join(root, folder, 'README.md')));
  return { name, path, text, readme: readme ?? '' };
}

async function templateFilesIn(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json') && !NOT_TEMPLATES.has(e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * Reads a folder in PufferPanel's layout: one folder per template holding `<name>.json` and optionally
 * `README.md`. Folders are visited in name order, so when two hold the same name the first one wins and the
 * second is reported as a duplicate.
 */
export async function scanFolder(root: string): Promise<FolderScan> {
  const folders = (await readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  const files: TemplateFile[] = [];
  const problems: TemplateProblem[] = [];
  const seen = new Map<string, string>();
  for (const folder of folders) {
    for (const file of await templateFilesIn(root, folder)) {
      const name = file.slice(0, -'.json'.length).toLowerCase();
      const path = `${folder}/${file}`;
      const first = seen.get(name);
      if (first !== undefined) {
        problems.push({
          name,
          path,
          reason: `duplicate template name '${name}', already provided by ${first}`,
        });
        continue;
      }
      seen.set(name, path);
      try {
        files.push(await readTemplateFile(root, folder, file));
      } catch (err) {
        problems.push({ name, path, reason: `cannot read ${path}: ${(err as Error).message}` });
      }
    }
  }
  return { files, problems };
}
