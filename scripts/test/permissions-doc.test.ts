/** docs/permissions.md is generated: it must be exactly what `npm run docs:permissions` writes now. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectPanelRoutes } from '../gen-permissions-doc.panel';
import { renderPermissionsDoc } from '../gen-permissions-doc.render';

describe('docs/permissions.md', () => {
  it('is what the generator writes from the contract and the panel (run `npm run docs:permissions`)', async () => {
    const committed = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'permissions.md'), 'utf8');
    expect(committed).toBe(renderPermissionsDoc(await collectPanelRoutes()));
  });

  it('lists every declared panel route (none undeclared) and every daemon row', async () => {
    const routes = await collectPanelRoutes();
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((r) => r.permission === 'undeclared').map((r) => `${r.method} ${r.url}`)).toEqual(
      [],
    );
    const text = renderPermissionsDoc(routes);
    for (const url of ['/daemon/server/:id/stats', '/proxy/daemon/server/:id/file/*', '/api/servers']) {
      expect(text).toContain(`\`${url}\``);
    }
  });
});
