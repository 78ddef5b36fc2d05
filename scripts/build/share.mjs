// Copies the files Hearth reads at run time into `<outDir>/share`, where the bundle looks for them
// (packages/contract/src/shipped-files.ts is the one table of them).
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transform } from 'esbuild';

/** Reads the table from the TypeScript source itself, so the build and the lookup cannot drift apart. */
async function shippedTable(root) {
  const source = readFileSync(join(root, 'packages/contract/src/shipped-files.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  return module.shippedFiles;
}

// Theme folders hold the sources of the `.tar` files the panel serves, and a script that rebuilds them.
const keep = { themes: (path) => !/\.sh$/.test(path) };

/** `optional`: names that may be missing (the web app, when the build was told not to build it). */
export async function copyShared({ root, outDir, optional = [] }) {
  const table = await shippedTable(root);
  for (const [name, { repo, share }] of Object.entries(table)) {
    const from = join(root, repo);
    if (!existsSync(from)) {
      if (optional.includes(name)) continue;
      throw new Error(`shipped file ${name} is missing: ${repo}`);
    }
    const to = join(outDir, 'share', share);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true, filter: keep[name] ?? (() => true) });
  }
}
