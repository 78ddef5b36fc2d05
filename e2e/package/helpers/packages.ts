/**
 * Two Debian packages of one build tree, the second with a higher version (HEARTH_PACKAGE_VERSION), for an
 * install followed by an upgrade. The tree is built once into .tmp/ (scripts/build.mjs --out-dir).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface TestPackages {
  first: { version: string; deb: string };
  second: { version: string; deb: string };
  remove(): void;
}

function packageAt(tree: string, outDir: string, version: string): string {
  const out = execFileSync(
    process.execPath,
    [join(ROOT, 'scripts/package/deb.mjs'), `--tree=${tree}`, `--out-dir=${outDir}`],
    {
      cwd: ROOT,
      env: { ...process.env, HEARTH_PACKAGE_VERSION: version },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ).toString();
  // The last line names the package (dpkg-deb's own line names its temporary file).
  const deb = /^(\/\S+\.deb) \(/m.exec(out)?.[1];
  if (!deb) throw new Error(`package:deb printed no package: ${out}`);
  return deb;
}

export function buildTestPackages(): TestPackages {
  const work = join(ROOT, '.tmp', `deb-test-${process.pid}`);
  const tree = join(work, 'build');
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), `--out-dir=${tree}`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const first = { version, deb: packageAt(tree, join(work, 'first'), version) };
  const upgrade = `${version}+upgrade1`;
  const second = { version: upgrade, deb: packageAt(tree, join(work, 'second'), upgrade) };
  return { first, second, remove: () => rmSync(work, { recursive: true, force: true }) };
}
