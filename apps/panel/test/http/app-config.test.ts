import type { AppConfig } from '@hearth/contract/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { expectNotFound } from '../helpers/expect-http';

describe.each(DIALECTS)('app config and themes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('GET /api/config is public and lists the shipped themes', async () => {
    const res = await call(t, 'GET', '/api/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      branding: { name: 'Hearth' },
      themes: { active: 'hearth', available: ['hearth', 'midnight'] },
      registrationEnabled: false,
      // "Forgot password?" is offered only with an e-mail provider (docs/security.md § Password reset).
      passwordResetEnabled: false,
      defaultLocale: 'en_US',
      // The file manager's resumable-upload chunk (`web.uploadChunkBytes`, docs/files.md).
      uploadChunkBytes: 50 * 1024 * 1024,
    });
  });

  it('GET /theme/{name}.tar serves a ustar archive with theme.json and theme.css', async () => {
    const res = await call(t, 'GET', '/theme/hearth.tar');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-tar');
    const tar = res.rawPayload;
    expect(tar.length % 512).toBe(0);
    expect(tar.subarray(257, 262).toString()).toBe('ustar');
    expect(tar.toString('latin1')).toContain('theme.json');
  });

  it('404 for missing themes and names that try to leave the folder', async () => {
    await expectNotFound(t, [
      '/theme/nope.tar',
      '/theme/..%2F..%2Fpackage.json.tar',
      '/theme/hearth',
      '/theme/%2e%2e.tar',
    ]);
  });

  it('the active theme follows panel.settings.defaultTheme', async () => {
    await t.services.settings.write({ 'panel.settings.defaultTheme': 'midnight' });
    expect((await call(t, 'GET', '/api/config')).json<AppConfig>().themes.active).toBe('midnight');
  });
});
