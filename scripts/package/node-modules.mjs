// The production node_modules of the Debian package: exactly the externals of the bundle
// (scripts/build/externals.mjs) and what they depend on, copied from the workspace's node_modules. Their native
// modules were built there for /usr/bin/node, the runtime the package bundles (docs/operations.md).
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Where Node would find `name` when required from the package in `fromDir` (nested first, then upwards). */
function resolvePackage(root, fromDir, name) {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) return undefined;
    const parent = dirname(dir);
    // From root/node_modules/a/node_modules/b the next place is root/node_modules/a, then root.
    dir = parent.endsWith('/node_modules') ? dirname(parent) : parent;
  }
}

/** Package folders (absolute) of `names` and their dependencies, optional ones included when installed. */
export function dependencyClosure(root, names) {
  const found = new Set();
  const queue = names.map((name) => ({ from: root, name, optional: false }));
  while (queue.length > 0) {
    const { from, name, optional } = queue.shift();
    const dir = resolvePackage(root, from, name);
    if (!dir) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${relative(root, from) || 'the bundle'}) is not installed`);
    }
    if (found.has(dir)) continue;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {}))
      queue.push({ from: dir, name: dep, optional: false });
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      queue.push({ from: dir, name: dep, optional: true });
  }
  return [...found];
}

// Sources of a native module (a package with binding.gyp): not needed once its .node file exists.
const nativeSources = /^\/(?:deps|src)(?:\/|$)/;
// Intermediate files of any native build, test add-ons, and the files of a package's own development.
const leftovers =
  /\/build\/(?:Release|Debug)\/(?:obj|obj\.target|\.deps)(?:\/|$)|\/test_extension\.node$|\.(?:o|a|mk)$|\/\.(?:eslintrc[^/]*|npmignore|gitattributes|gitignore)$/;

// Prebuilt add-ons for other systems (node-pty ships darwin and win32 ones): they never load here.
const foreignPrebuild = new RegExp(`/prebuilds/(?!${process.platform}-${process.arch}(?:/|$))[^/]+`);

/** Copies the closure into `<target>/node_modules`, keeping each package's place in the tree. */
export function copyNodeModules(root, names, target) {
  const dirs = dependencyClosure(root, names);
  for (const dir of dirs) {
    const rel = relative(root, dir);
    const native = existsSync(join(dir, 'binding.gyp'));
    cpSync(dir, join(target, rel), {
      recursive: true,
      // Nested node_modules are copied as packages of their own, only when in the closure.
      filter: (path) => {
        const inner = relative(dir, path);
        if (inner.startsWith('node_modules') || leftovers.test(`/${inner}`)) return false;
        if (foreignPrebuild.test(`/${inner}`)) return false;
        return !(native && nativeSources.test(`/${inner}`));
      },
    });
  }
  return dirs.length;
}
