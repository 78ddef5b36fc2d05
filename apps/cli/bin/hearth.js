#!/usr/bin/env node
// The workspace's `hearth` command (`npx hearth …` in a checkout) runs the production build in dist/hearth, which
// `npm run build` writes (docs/adr/0006-production-build.md). Packages install dist/hearth/bin/hearth.js instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../../../dist/hearth/lib/hearth.js', import.meta.url);
if (!existsSync(built)) {
  console.error(`hearth: not built yet (${fileURLToPath(built)} is missing): run \`npm run build\` first`);
  process.exit(1);
}
await import(built.href);
