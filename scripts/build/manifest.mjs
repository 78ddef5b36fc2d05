// Writes `<outDir>/package.json`: the built tree as a package of its own, whose dependencies are exactly the
// externals the bundle loads from node_modules (`npm install --omit=dev` there gives a production tree).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { externals } from './externals.mjs';

const workspaces = ['apps/panel', 'apps/daemon', 'apps/cli', 'packages/contract', 'packages/server-kit'];
// Optional native helpers their parents install (cpu-features comes with ssh2).
const optionalNatives = ['cpu-features'];

function installedVersion(root, name) {
  return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

export function writeManifest({ root, outDir }) {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const declared = {};
  for (const ws of workspaces) {
    const pkg = JSON.parse(readFileSync(join(root, ws, 'package.json'), 'utf8'));
    Object.assign(declared, pkg.dependencies ?? {});
  }
  const dependencies = {};
  for (const name of externals) {
    if (declared[name]) dependencies[name] = declared[name];
    // A part of a bundled package (Fastify's): pinned to the version installed for it.
    else if (!optionalNatives.includes(name)) dependencies[name] = installedVersion(root, name);
  }
  const manifest = {
    name: 'hearth',
    version: rootPkg.version,
    description: rootPkg.description,
    license: rootPkg.license,
    private: true,
    type: 'module',
    engines: rootPkg.engines,
    bin: { hearth: 'bin/hearth.js' },
    dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
