/**
 * Builds the repository's Dockerfile where no registry is reachable (docs/operations.md § Container): the base is
 * imported by scripts/ci/base-image.sh (Debian bookworm from Debian's packages + this machine's Node 20), and the
 * Dockerfile's CI path (`HEARTH_PREBUILT`) takes a tree built here: `npm run build` into a context folder, its
 * production node_modules (`npm install --omit=dev` from the npm registry, natives built against this Node; kept
 * in /var/cache/hearth-ci per manifest and Node version) and the holder compiled with this machine's cc.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensureWebBuilt } from '../../helpers/panel';

const ROOT = resolve(import.meta.dirname, '../../..');
const CACHE = '/var/cache/hearth-ci';
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

/** `npm install --omit=dev` for the tree's manifest, once per manifest and Node version; copied into `tree`. */
function productionModules(tree: string): void {
  const key = createHash('sha256')
    .update(readFileSync(join(tree, 'package.json')))
    .update(process.version)
    .digest('hex')
    .slice(0, 16);
  const cached = join(CACHE, `prod-modules-${key}`);
  if (!existsSync(cached)) {
    const work = `${cached}.${process.pid}.tmp`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    cpSync(join(tree, 'package.json'), join(work, 'package.json'));
    // Natives against this Node's headers (Debian's /usr/include/node), as the repository's .npmrc does.
    const env = { ...process.env, npm_config_nodedir: '/usr', npm_config_build_from_source: 'true' };
    run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock'], work, env);
    renameSync(work, cached);
  }
  cpSync(join(cached, 'node_modules'), join(tree, 'node_modules'), {
    recursive: true,
    verbatimSymlinks: true,
  });
}

/** A build context in `.tmp/` with the Dockerfile, the package files it copies first, and `prebuilt/`. */
export function prepareContext(name: string): string {
  const context = join(ROOT, '.tmp', name);
  rmSync(context, { recursive: true, force: true });
  const tree = join(context, 'prebuilt');
  ensureWebBuilt();
  run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--no-web', `--out-dir=${tree}`]);
  productionModules(tree);
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
