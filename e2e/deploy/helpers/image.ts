/**
 * Builds the repository's Dockerfile where no registry is reachable (docs/operations.md § Container): the base is
 * imported by scripts/ci/base-image.sh (Debian bookworm from Debian's packages + this machine's Node 20), and the
 * Dockerfile's CI path (`HEARTH_PREBUILT`) takes a tree built here: `npm run build` into a context folder, its
 * production node_modules copied from the workspace as the Debian package takes them (scripts/package/
 * node-modules.mjs: natives built for this Node) and the holder compiled with this machine's cc.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureWebBuilt } from '../../helpers/panel';

const ROOT = resolve(import.meta.dirname, '../../..');
export const BASE_IMAGE = 'hearth-ci/node-base:bookworm';
const PACKAGE_FILES = ['package.json', 'package-lock.json', '.npmrc'];
const WORKSPACES = [
  'packages/contract',
  'packages/server-kit',
  'apps/cli',
  'apps/daemon',
  'apps/panel',
  'apps/web',
];

const run = (cmd: string, args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).toString();

/** Imports the local base image (cached by its labels). */
export function baseImage(): string {
  return run('sh', [join(ROOT, 'scripts/ci/base-image.sh'), BASE_IMAGE]).trim();
}

/** The externals and their dependencies, copied from the workspace's node_modules (natives built for this Node). */
async function productionModules(tree: string): Promise<void> {
  const { externals } = (await import('../../../scripts/build/externals.mjs')) as { externals: string[] };
  const { copyNodeModules } = (await import('../../../scripts/package/node-modules.mjs')) as {
    copyNodeModules: (root: string, names: string[], target: string) => number;
  };
  copyNodeModules(ROOT, externals, tree);
}

/** A build context in `.tmp/` with the Dockerfile, the package files it copies first, and `prebuilt/`. */
export async function prepareContext(name: string): Promise<string> {
  const context = join(ROOT, '.tmp', name);
  rmSync(context, { recursive: true, force: true });
  const tree = join(context, 'prebuilt');
  ensureWebBuilt();
  run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--no-web', `--out-dir=${tree}`]);
  await productionModules(tree);
  const source = join(tree, 'share/holder/hearth-holder.c');
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  run('cc', ['-std=c11', '-O2', '-Wall', '-o', join(dirname(source), `hearth-holder-${hash}`), source]);
  for (const file of ['Dockerfile', ...PACKAGE_FILES, ...WORKSPACES.map((ws) => `${ws}/package.json`)]) {
    mkdirSync(dirname(join(context, file)), { recursive: true });
    cpSync(join(ROOT, file), join(context, file));
  }
  return context;
}

/** `docker build` of the context on the local base; returns the build's output. */
export function buildImage(context: string, tag: string): string {
  return run('docker', [
    'build',
    '--build-arg',
    `BASE_IMAGE=${BASE_IMAGE}`,
    '--build-arg',
    'HEARTH_PREBUILT=prebuilt',
    '-t',
    tag,
    context,
  ]);
}
