import type { AppConfig } from '@hearth/contract/settings';
import type { ErrorBody } from '@hearth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';

describe.each(DIALECTS)('settings API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let settingsOnly: string;
  let nobody: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = (await createUser(t, { admin: true })).token;
    settingsOnly = (await createUser(t, { panelSettings: true })).token;
    nobody = (await createUser(t)).token;
  });
  afterAll(() => t?.close());

  it('401 anonymous, 403 without panelSettings', async () => {
    expect((await call(t, 'GET', '/api/settings/panel.settings.companyName')).statusCode).toBe(401);
    const denied = await call(t, 'GET', '/api/settings/panel.settings.companyName', { token: nobody });
    expect(denied.statusCode).toBe(403);
    expect(denied.json<ErrorBody>().error.code).toBe('ErrNoPermission');
  });

  it('reads the config default until a value is saved', async () => {
    const res = await call(t, 'GET', '/api/settings/panel.settings.companyName', { token: settingsOnly });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ value: 'Hearth' });
  });

  it('404 ErrUnknownSetting for an unlisted key (read and write)', async () => {
    const read = await call(t, 'GET', '/api/settings/panel.nope', { token: admin });
    expect(read.statusCode).toBe(404);
    expect(read.json<ErrorBody>().error).toMatchObject({
      code: 'ErrUnknownSetting',
      metadata: { key: 'panel.nope' },
    });
    const write = await call(t, 'POST', '/api/settings', {
      token: admin,
      body: { 'internal.setupTokenHash': 'x' },
    });
    expect(write.json<ErrorBody>().error.code).toBe('ErrUnknownSetting');
  });

  it('400 with field codes for bad values, and nothing changes', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['panel.registrationEnabled', 'maybe', 'ErrFieldInvalid'],
      ['panel.email.provider', 'pigeon', 'ErrFieldInvalidOption'],
      ['panel.email.from', 'not-an-email', 'ErrFieldNotEmail'],
      ['panel.settings.companyName', 'x'.repeat(10_000), 'ErrFieldTooLarge'],
      ['panel.settings.masterUrl', 'javascript:alert(1)', 'ErrFieldInvalid'],
      ['panel.settings.defaultTheme', '../../etc/passwd', 'ErrFieldInvalid'],
    ];
    for (const [key, value, code] of cases) {
      const res = await call(t, 'PUT', `/api/settings/${key}`, { token: admin, body: { value } });
      expect(res.statusCode, key).toBe(400);
      expect(res.json<ErrorBody>().error.code, key).toBe(code);
      expect(res.json<ErrorBody>().error.metadata?.field).toBe('value');
    }
    const missing = await call(t, 'PUT', '/api/settings/panel.settings.companyName', {
      token: admin,
      body: {},
    });
    expect(missing.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldRequired',
      metadata: { field: 'value' },
    });
    const extra = await call(t, 'PUT', '/api/settings/panel.settings.companyName', {
      token: admin,
      body: { value: 'A', other: 1 },
    });
    expect(extra.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldUnknown',
      metadata: { field: 'other' },
    });
    const mixed = await call(t, 'POST', '/api/settings', {
      token: admin,
      body: { 'panel.settings.companyName': 'Half', 'panel.registrationEnabled': 'maybe' },
    });
    expect(mixed.json<ErrorBody>().error.metadata?.field).toBe('panel.registrationEnabled');
    const after = await call(t, 'GET', '/api/settings/panel.settings.companyName', { token: admin });
    expect(after.json()).toEqual({ value: 'Hearth' });
  });

  it('PUT one key, then the value shows in GET and in /api/config', async () => {
    const put = await call(t, 'PUT', '/api/settings/panel.settings.companyName', {
      token: admin,
      body: { value: "O'Brien; DROP TABLE users; --" },
    });
    expect(put.statusCode).toBe(204);
    const read = await call(t, 'GET', '/api/settings/panel.settings.companyName', { token: admin });
    expect(read.json()).toEqual({ value: "O'Brien; DROP TABLE users; --" });
    expect((await call(t, 'GET', '/api/config')).json<AppConfig>().branding.name).toBe(
      "O'Brien; DROP TABLE users; --",
    );
  });

  it('POST a map of typed values; strings "true"/"false" become booleans', async () => {
    const res = await call(t, 'POST', '/api/settings', {
      token: admin,
      body: {
        'panel.registrationEnabled': 'true',
        'panel.email.provider': 'smtp',
        'panel.settings.masterUrl': 'https://p.example.com',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(
      (await call(t, 'GET', '/api/settings/panel.registrationEnabled', { token: admin })).json(),
    ).toEqual({ value: true });
    expect((await call(t, 'GET', '/api/config')).json<AppConfig>().registrationEnabled).toBe(true);
    expect((await call(t, 'GET', '/api/settings/panel.email.provider', { token: admin })).json()).toEqual({
      value: 'smtp',
    });
  });

  it('never reads the e-mail password back; writing "" keeps it', async () => {
    await call(t, 'PUT', '/api/settings/panel.email.password', { token: admin, body: { value: 's3cret!' } });
    const read = await call(t, 'GET', '/api/settings/panel.email.password', { token: admin });
    expect(read.json()).toEqual({ value: '' });
    await call(t, 'PUT', '/api/settings/panel.email.password', { token: admin, body: { value: '' } });
    const effective = await t.services.settings.effective();
    expect(effective['panel.email.password']).toBe('s3cret!');
  });
});

describe.each(DIALECTS)('user settings API on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    alice = (await createUser(t)).token;
    bob = (await createUser(t)).token;
  });
  afterAll(() => t?.close());

  it('401 without a session', async () => {
    expect((await call(t, 'GET', '/api/userSettings')).statusCode).toBe(401);
    const bad = await call(t, 'PUT', '/api/userSettings/dark', { token: 'forged', body: { value: 'true' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json<ErrorBody>().error.code).toBe('ErrSessionTimedOut');
  });

  it('400 for non-string values and unknown fields; 404 for unknown keys', async () => {
    const notString = await call(t, 'PUT', '/api/userSettings/dark', { token: alice, body: { value: true } });
    expect(notString.json<ErrorBody>().error).toMatchObject({
      code: 'ErrFieldInvalid',
      metadata: { field: 'value' },
    });
    const unknown = await call(t, 'PUT', '/api/userSettings/colour', { token: alice, body: { value: 'x' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>().error.code).toBe('ErrUnknownSetting');
  });

  it('upserts and lists only the caller’s own settings', async () => {
    expect((await call(t, 'GET', '/api/userSettings', { token: alice })).json()).toEqual([]);
    for (const value of ['true', 'false']) {
      const put = await call(t, 'PUT', '/api/userSettings/dark', { token: alice, body: { value } });
      expect(put.statusCode).toBe(204);
    }
    await call(t, 'PUT', '/api/userSettings/preferredTheme', { token: alice, body: { value: 'midnight' } });
    expect((await call(t, 'GET', '/api/userSettings', { token: alice })).json()).toEqual([
      { key: 'dark', value: 'false' },
      { key: 'preferredTheme', value: 'midnight' },
    ]);
    expect((await call(t, 'GET', '/api/userSettings', { token: bob })).json()).toEqual([]);
  });
});
