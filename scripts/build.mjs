#!/usr/bin/env node
// `npm run build`: the production build (docs/adr/0006-production-build.md). Builds the web app, bundles the
// `hearth` command with the contract, panel and daemon into dist/hearth/lib, copies the files they read at run
// time into dist/hearth/share, and writes dist/hearth/bin/hearth.js and dist/hearth/package.json. Nothing in
// the result imports tsx or TypeScript.
//   --no-web        do not build the web app (an existing apps/web/dist is still copied)
//   --out-dir=DIR   write the tree elsewhere (tests); it must lie inside the repository, whose node_modules
//                   hold the externals the bundle loads
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundle } from './build/bundle.mjs';
import { writeManifest } from './build/manifest.mjs';
import { copyShared } from './build/share.mjs';

const root = resolve(import.meta.dirname, '..');
const outArg = process.argv.find((a) => a.startsWith('--out-dir='));
const outDir = outArg ? resolve(outArg.slice('--out-dir='.length)) : join(root, 'dist/hearth');
const noWeb = process.argv.includes('--no-web');
const started = Date.now();

if (!noWeb) {
  const web = spawnSync('npm', ['run', '-s', 'build', '-w', '@hearth/web', '--', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (web.status !== 0) process.exit(web.status ?? 1);
}

// A fresh tree each time: no chunk of an older build can be loaded by accident.
rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, 'bin'), { recursive: true });
await bundle({ root, outDir });
await copyShared({ root, outDir, optional: noWeb ? ['web'] : [] });
writeManifest({ root, outDir });
const bin = join(outDir, 'bin/hearth.js');
writeFileSync(bin, "#!/usr/bin/env node\nimport '../lib/hearth.js';\n");
chmodSync(bin, 0o755);
console.log(`built ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
