#!/usr/bin/env node
// `npm run package:deb`: the Debian package dist/hearth_<version>_<arch>.deb, built with dpkg-deb only
// (docs/operations.md § Debian package). Layout: /usr/lib/hearth (the compiled app, its production node_modules,
// the bundled Node runtime `node`, a prebuilt holder), /usr/bin/hearth, /etc/hearth/config.json (conffile),
// /lib/systemd/system/hearth{,-daemon}.service; maintainer scripts and unit files live in packaging/debian/.
//   --tree=DIR     package an existing `npm run build` tree instead of building a fresh one into .tmp/
//   --out-dir=DIR  where the .deb goes (default dist/)
// HEARTH_PACKAGE_VERSION overrides the version of package.json (upgrade tests, snapshot builds).
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { externals } from '../build/externals.mjs';
import { copyNodeModules } from './node-modules.mjs';
import { buildHolder, debianFiles, installedSize, stripBinaries } from './deb-files.mjs';

const root = resolve(import.meta.dirname, '../..');
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
  return r;
};

const version =
  process.env.HEARTH_PACKAGE_VERSION || JSON.parse(readFileSync(join(root, 'package.json'))).version;
if (!/^[0-9][A-Za-z0-9.+~-]*$/.test(version)) throw new Error(`not a Debian version: ${version}`);
const arch = spawnSync('dpkg', ['--print-architecture'], { encoding: 'utf8' }).stdout.trim();
const outDir = resolve(arg('out-dir') ?? join(root, 'dist'));
const work = join(root, '.tmp/package', `${version}-${process.pid}`);

let tree = arg('tree') && resolve(arg('tree'));
if (!tree) {
  tree = join(work, 'build');
  run(process.execPath, [join(root, 'scripts/build.mjs'), `--out-dir=${tree}`], { cwd: root });
}

const stage = join(work, 'stage');
const lib = join(stage, 'usr/lib/hearth');
rmSync(stage, { recursive: true, force: true });
mkdirSync(lib, { recursive: true });
for (const part of ['bin', 'lib', 'share', 'package.json'])
  cpSync(join(tree, part), join(lib, part), { recursive: true });
const modules = copyNodeModules(root, externals, lib);
// The bundled runtime: the Node the native modules were built for (docs/operations.md § Debian package).
cpSync(process.execPath, join(lib, 'node'));
chmodSync(join(lib, 'node'), 0o755);
stripBinaries(lib);
buildHolder(join(lib, 'share/holder'));
debianFiles({ root, stage, version, arch, size: installedSize(stage) });

mkdirSync(outDir, { recursive: true });
const deb = join(outDir, `hearth_${version}_${arch}.deb`);
const temp = `${deb}.${process.pid}.tmp`;
run('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', stage, temp]);
renameSync(temp, deb);
rmSync(work, { recursive: true, force: true });
writeFileSync(1, `${deb} (${modules} node modules)\n`);
