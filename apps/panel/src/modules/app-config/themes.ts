import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const THEME_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Theme names are the `*.tar` files of the themes folder (without the extension), sorted. */
export async function listThemes(dir: string): Promise<string[]> {
  try {
    const files = await readdir(dir);
    return files
      .filter((f) => f.endsWith('.tar'))
      .map((f) => f.slice(0, -4))
      .filter((name) => THEME_NAME.test(name))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Reads one theme archive; the name is checked against a strict pattern, so no path can escape. */
export async function readTheme(dir: string, name: string): Promise<Buffer | undefined> {
  if (!THEME_NAME.test(name)) return undefined;
  try {
    return await readFile(join(dir, `${name}.tar`));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
