/**
 * `npm run docs:permissions`: writes docs/permissions.md from the contract's permission table and the panel's
 * routes (scripts/test/permissions-doc.test.ts fails while the committed file differs). Written whole to a
 * temporary file, then renamed over the old one.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectPanelRoutes } from './gen-permissions-doc.panel';
import { renderPermissionsDoc } from './gen-permissions-doc.render';

const target = join(import.meta.dirname, '..', 'docs', 'permissions.md');
const text = renderPermissionsDoc(await collectPanelRoutes());
const temp = `${target}.${process.pid}.tmp`;
await writeFile(temp, text);
await rename(temp, target);
console.log(`wrote ${target}`);
