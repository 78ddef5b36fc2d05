import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import type {
  ImportList,
  ImportResult,
  StoredTemplate,
  TemplateSummary,
} from '@hearth/contract/templates-api';
import { buildTestApp, call, createUser, type TestApp } from '../helpers/app';
import { DIALECTS } from '../helpers/dialects';
import { corpusSamples } from './corpus';

const errorOf = (res: LightMyRequestResponse) => res.json<ErrorBody>().error;
const stored = (res: LightMyRequestResponse) => res.json<StoredTemplate>();

const echo = {
  type: 'echo',
  display: 'Echo',
  install: [{ type: 'command', commands: 'echo hi' }],
  run: { command: 'sleep 100', stop: 'stop' },
  environment: { type: 'tty' },
};

describe.each(DIALECTS)('templates API on %s', (dialect) => {
  let t: TestApp;
  let editor: string;
  let viewer: string;
  let nobody: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    editor = (await createUser(t, { viewTemplates: true, editTemplates: true })).token;
    viewer = (await createUser(t, { viewTemplates: true })).token;
    nobody = (await createUser(t)).token;
  });
  afterAll(() => t?.close());

  it('401 anonymous, 403 without viewTemplates, 403 viewer editing', async () => {
    expect((await call(t, 'GET', '/api/templates')).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/templates', { token: nobody })).statusCode).toBe(403);
    const put = await call(t, 'PUT', '/api/templates/echo', { token: viewer, body: echo });
    expect(put.statusCode).toBe(403);
    expect((await call(t, 'POST', '/api/templates/import', { token: viewer })).statusCode).toBe(403);
    const status = await call(t, 'GET', '/api/templates/import/status', { token: viewer });
    expect(status.statusCode).toBe(403);
    expect((await call(t, 'DELETE', '/api/templates/echo', { token: viewer })).statusCode).toBe(403);
  });

  it('404 ErrNoTemplate naming an unknown id', async () => {
    const res = await call(t, 'GET', '/api/templates/nope', { token: viewer });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'ErrNoTemplate', metadata: { name: 'nope' } });
    expect((await call(t, 'DELETE', '/api/templates/nope', { token: editor })).statusCode).toBe(404);
  });

  it('400 for invalid JSON, a bad id and a schema violation naming the field', async () => {
    const bad = await call(t, 'PUT', '/api/templates/echo', {
      token: editor,
      body: '{"type": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('ErrInvalidJson');
    const badId = await call(t, 'PUT', '/api/templates/Not%20Valid', { token: editor, body: echo });
    expect(badId.statusCode).toBe(400);
    expect(errorOf(badId).metadata?.field).toBe('id');
    const field = await call(t, 'PUT', '/api/templates/echo', {
      token: editor,
      body: { ...echo, install: [{ type: 'writefile', text: 'x' }] },
    });
    expect(field.statusCode).toBe(400);
    expect(errorOf(field)).toMatchObject({
      code: 'ErrFieldRequired',
      metadata: { field: 'install[0].target' },
    });
    expect((await call(t, 'GET', '/api/templates/echo', { token: viewer })).statusCode).toBe(404);
  });

  it('saves, lists, reads back normalised, overwrites and deletes', async () => {
    const saved = await call(t, 'PUT', '/api/templates/echo', { token: editor, body: echo });
    expect(saved.statusCode).toBe(200);
    const read = await call(t, 'GET', '/api/templates/echo', { token: viewer });
    expect(stored(read)).toMatchObject({
      id: 'echo',
      name: 'echo',
      install: [{ type: 'command', commands: ['echo hi'] }],
      supportedEnvironments: [{ type: 'tty' }],
      warnings: [],
    });
    await call(t, 'PUT', '/api/templates/echo', {
      token: editor,
      body: { ...stored(read), display: 'Echo 2' },
    });
    const list = await call(t, 'GET', '/api/templates', { token: viewer });
    expect(list.json<TemplateSummary[]>()).toEqual([
      {
        id: 'echo',
        name: 'echo',
        display: 'Echo 2',
        type: 'echo',
        supportedEnvironments: [{ type: 'tty' }],
        warnings: [],
      },
    ]);
    expect((await call(t, 'DELETE', '/api/templates/echo', { token: editor })).statusCode).toBe(204);
    expect((await call(t, 'GET', '/api/templates', { token: viewer })).json<TemplateSummary[]>()).toEqual([]);
  });

  it('converts a 1.x template on save and keeps unknown processors with a warning', async () => {
    const v1 = corpusSamples().find((s) => s.generation === 'v1' && s.name === 'factorio');
    const res = await call(t, 'PUT', '/api/templates/factorio-old', {
      token: editor,
      body: JSON.parse(v1?.text ?? '') as unknown,
    });
    expect(res.statusCode).toBe(200);
    expect(stored(res).run.command).toContain('./factorio/bin/x64/factorio --port ${port}');
    expect(stored(res).warnings.map((w) => w.code)).toEqual(['convertedFromV1']);
    const java = {
      ...echo,
      install: [
        { type: 'javadl', version: '21' },
        { type: 'steamgamedl', appId: '1' },
      ],
    };
    const saved = await call(t, 'PUT', '/api/templates/java', { token: editor, body: java });
    expect(stored(saved).install).toEqual(java.install);
    const list = (await call(t, 'GET', '/api/templates', { token: viewer })).json<TemplateSummary[]>();
    expect(list.find((s) => s.id === 'java')?.warnings[0]?.names).toEqual(['javadl', 'steamgamedl']);
  });

  it('lists the bundled starter set as importable and imports one, overwriting', async () => {
    const bundled = ['minecraft-vanilla', 'freeciv-server', 'minetest-server'];
    const plain = await call(t, 'POST', '/api/templates/import', { token: editor });
    expect(plain.statusCode).toBe(200);
    const names = plain.json<string[]>();
    expect(names).toEqual(expect.arrayContaining(bundled));
    expect(names.every((n) => typeof n === 'string')).toBe(true);
    expect(new Set(names).size).toBe(names.length);

    const list = await call(t, 'GET', '/api/templates/import/status', { token: editor });
    expect(list.statusCode).toBe(200);
    expect(list.json<ImportList>().templates.map((x) => x.name)).toEqual(expect.arrayContaining(bundled));
    expect(list.json<ImportList>().sourceErrors).toEqual([]);
    expect(list.json<ImportList>().templates[0]).toMatchObject({ source: 'bundled', warnings: [] });

    await call(t, 'PUT', '/api/templates/freeciv-server', {
      token: editor,
      body: { ...echo, display: 'Mine' },
    });
    const imported = await call(t, 'POST', '/api/templates/import/Freeciv-Server', { token: editor });
    expect(imported.statusCode).toBe(200);
    expect(imported.json<ImportResult>()).toMatchObject({
      id: 'freeciv-server',
      display: 'Freeciv server',
      source: 'bundled',
    });
    const read = await call(t, 'GET', '/api/templates/freeciv-server', { token: viewer });
    expect(stored(read).readme).toContain('apt-get install freeciv-server');
  });

  it('refuses an overwrite with 409 when asked to (?overwrite=false), overwrites by default as SPEC says', async () => {
    const url = '/api/templates/import/minetest-server';
    expect((await call(t, 'POST', `${url}?overwrite=false`, { token: viewer })).statusCode).toBe(403);
    const first = await call(t, 'POST', `${url}?overwrite=false`, { token: editor });
    expect(first.statusCode).toBe(200);
    await call(t, 'PUT', '/api/templates/minetest-server', {
      token: editor,
      body: { ...echo, display: 'Mine' },
    });
    const status = async () =>
      (await call(t, 'GET', '/api/templates/import/status', { token: editor }))
        .json<ImportList>()
        .templates.find((x) => x.name === 'minetest-server');
    expect(await status()).toMatchObject({
      state: 'current',
      imported: { source: 'bundled', editedSince: true },
    });

    const refused = await call(t, 'POST', `${url}?overwrite=false`, { token: editor });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'ErrDuplicateTemplateName',
      metadata: { name: 'minetest-server' },
    });
    const kept = await call(t, 'GET', '/api/templates/minetest-server', { token: viewer });
    expect(stored(kept).display).toBe('Mine');
    const bad = await call(t, 'POST', `${url}?overwrite=yes`, { token: editor });
    expect(bad.statusCode).toBe(400);

    for (const query of ['', '?overwrite=true']) {
      await call(t, 'PUT', '/api/templates/minetest-server', {
        token: editor,
        body: { ...echo, display: 'Mine' },
      });
      const res = await call(t, 'POST', `${url}${query}`, { token: editor });
      expect(res.statusCode, query).toBe(200);
      const read = await call(t, 'GET', '/api/templates/minetest-server', { token: viewer });
      expect(stored(read).display, query).not.toBe('Mine');
      expect(await status()).toMatchObject({ state: 'current', imported: { editedSince: false } });
    }
  });

  it('answers ErrNoTemplate for an unknown import name and a 400 for an unknown source', async () => {
    const res = await call(t, 'POST', '/api/templates/import/does-not-exist', { token: editor });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'ErrNoTemplate', metadata: { name: 'does-not-exist' } });
    const src = await call(t, 'POST', '/api/templates/import/generic-process?source=nowhere', {
      token: editor,
    });
    expect(src.statusCode).toBe(400);
    expect(errorOf(src)).toMatchObject({ code: 'ErrFieldInvalidOption', metadata: { field: 'source' } });
  });
});
