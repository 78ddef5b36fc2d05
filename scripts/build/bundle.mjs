// esbuild options for the production bundle of the `hearth` command (docs/adr/0006-production-build.md).
import { build } from 'esbuild';
import { externals, optionalPeers } from './externals.mjs';

// Bundled CommonJS calls require() for Node built-ins and externals; ESM has no require, so each chunk gets one.
const banner = [
  "import { createRequire as __hearthCreateRequire } from 'node:module';",
  'const require = __hearthCreateRequire(import.meta.url);',
].join('\n');

/**
 * Bundles `apps/cli/src/main.ts` (the one composition root) into `<outDir>/lib`: `hearth.js` and the chunks it
 * imports on demand (the panel, the daemon, routes and libraries only some commands need).
 */
export async function bundle({ root, outDir }) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { hearth: 'apps/cli/src/main.ts' },
    outdir: `${outDir}/lib`,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: [...externals, ...optionalPeers],
    banner: { js: banner },
    define: { __HEARTH_BUNDLE__: 'true' },
    chunkNames: '[name]-[hash]',
    minify: process.env.HEARTH_BUILD_NO_MINIFY !== '1',
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    metafile: true,
  });
  return result.metafile;
}
