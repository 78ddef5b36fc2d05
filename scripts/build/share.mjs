// Copies the files Hearth reads at run time into `<outDir>/share`, where the bundle looks for them
// (packages/contract/src/shipped-files.ts is the one table of them).
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transform } from 'esbuild';
import { readFileSync } from 'node:fs';

/** Reads the table from the TypeScript source itself, so the build and the lookup cannot drift apart. */
async function shippedTable(root) {
  const source = readFileSync(join(root, 'packages/contract/src/shipped-files.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  return module.shippedFiles;
}

// Theme folders hold the sources of the `.tar` files the panel serves, and a script that rebuilds them.
const keep = { themes: (path) => !/\.sh$/.test(path) };

export async function copyShared({ root, outDir }) {
  const table = await shippedTable(root);
  for (const [name, { repo, share }] of Object.entries(table)) {
    const from = join(root, repo);
    if (!existsSync(from)) throw new Error(`shipped file ${name} is missing: ${repo}`);
    const to = join(outDir, 'share', share);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true, filter: keep[name] ?? (() => true) });
  }
}
