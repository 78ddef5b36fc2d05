/**
 * Bad input at every request part a permission-table row declares (packages/contract/src/daemon-routes.ts) is
 * refused by the row's schema before its handler runs, with the catalogued code and field the daemon has always
 * answered (docs/errors.md), and nothing is done; good input in the same forms is taken.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskListResponse } from '@hearth/contract';
import { fakeGameDefinition, startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const id = 'wire1';

interface Refusal {
  status: number;
  code: string | undefined;
  field: unknown;
}

describe('row schemas refuse bad input with catalogued codes', () => {
  let d: TestDaemon;
  let admin: string;

  beforeAll(async () => {
    d = await startTestDaemon();
    admin = await d.admin();
    expect(
      (await d.request('PUT', `/daemon/server/${id}`, { token: admin, body: fakeGameDefinition() })).status,
    ).toBe(200);
  });
  afterAll(async () => d?.close());

  const refusal = async (res: Response): Promise<Refusal> => {
    const body = (await res.json()) as { error?: { code?: string; metadata?: { field?: unknown } } };
    return { status: res.status, code: body.error?.code, field: body.error?.metadata?.field };
  };
  const send = (method: string, path: string, opts: { body?: unknown; raw?: string } = {}) =>
    d.request(method, `/daemon/server/${path}`, { token: admin, ...opts });
  const exists = (path: string) =>
    access(join(d.config.serversDir ?? '', path)).then(
      () => true,
      () => false,
    );
  const tasks = async () => ((await (await send('GET', `${id}/tasks`)).json()) as TaskListResponse).tasks;

  it('an id of another form names nothing: 404, not a path', async () => {
    expect(await refusal(await send('GET', 'a.b/status'))).toMatchObject({
      status: 404,
      code: 'ErrServerNotFound',
    });
    expect(await refusal(await send('PUT', `${id}/tasks/a.b`, { body: { name: 'x' } }))).toMatchObject({
      status: 404,
      code: 'ErrTaskNotFound',
    });
    expect(await refusal(await send('POST', `${id}/tasks/a.b/run`))).toMatchObject({
      status: 404,
      code: 'ErrTaskNotFound',
    });
  });

  it('a definition: ErrInvalidDefinition naming the field, nothing written', async () => {
    const bad = await refusal(await send('PUT', 'wire2', { body: { run: { command: 5 } } }));
    expect(bad).toEqual({ status: 400, code: 'ErrInvalidDefinition', field: 'run.command' });
    expect(await refusal(await send('PUT', 'wire2', { body: [1, 2] }))).toEqual({
      status: 400,
      code: 'ErrInvalidDefinition',
      field: '(root)',
    });
    expect(await exists('wire2.json')).toBe(false);
    const update = await refusal(
      await send('POST', id, { body: { run: { command: 'x' }, environment: { type: 'vm' } } }),
    );
    expect(update).toMatchObject({ status: 400, code: 'ErrInvalidDefinition' });
    expect(String(update.field)).toMatch(/^environment/);
    const stored = JSON.parse(await readFile(join(d.config.serversDir ?? '', `${id}.json`), 'utf8')) as {
      environment?: { type?: string };
    };
    expect(stored.environment?.type).toBe('standard');
  });

  it('variables: ErrFieldInvalid naming `data`', async () => {
    for (const body of [{}, { data: 'x' }, { data: { memory: 5 } }]) {
      const res = await refusal(await send('POST', `${id}/data`, { body }));
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, code: 'ErrFieldInvalid' });
      expect(String(res.field)).toMatch(/^data/);
    }
    expect((await send('POST', `${id}/data`, { body: { data: { memory: { value: 768 } } } })).status).toBe(
      204,
    );
  });

  it('the console: no command is ErrFieldRequired `command`; raw text and JSON are taken', async () => {
    for (const body of [{}, { command: 5 }, [1]]) {
      expect(await refusal(await send('POST', `${id}/console`, { body })), JSON.stringify(body)).toEqual({
        status: 400,
        code: 'ErrFieldRequired',
        field: 'command',
      });
    }
    for (const time of ['yesterday', '-1', 'Infinity']) {
      expect(await refusal(await send('GET', `${id}/console?time=${time}`)), time).toMatchObject({
        status: 400,
        code: 'ErrInvalidUnixTime',
      });
    }
    expect((await send('GET', `${id}/console?time=`)).status).toBe(200);
    // The server is stopped: a command is refused by the server, not by the wire.
    expect((await refusal(await send('POST', `${id}/console`, { raw: 'say hi\n' }))).code).toBe(
      'ErrServerOffline',
    );
    expect((await refusal(await send('POST', `${id}/console`, { body: { command: 'say hi' } }))).code).toBe(
      'ErrServerOffline',
    );
  });

  it('power: `wait` other than true/false/1/0/empty is ErrFieldInvalid `wait`, nothing started', async () => {
    expect(await refusal(await send('POST', `${id}/start?wait=soon`))).toEqual({
      status: 400,
      code: 'ErrFieldInvalid',
      field: 'wait',
    });
    expect(await (await send('GET', `${id}/status`)).json()).toMatchObject({
      running: false,
      installing: false,
    });
  });

  it('tasks: a bad body is ErrFieldInvalid naming the field, a bad schedule ErrInvalidCron; nothing saved', async () => {
    const cases: Array<[unknown, Partial<Refusal>]> = [
      [{ name: ' ' }, { code: 'ErrFieldInvalid', field: 'name' }],
      [
        { name: 'x', operations: 'start' },
        { code: 'ErrFieldInvalid', field: 'operations' },
      ],
      [{ name: 'x', operations: [{ type: 'sleep', seconds: -1 }] }, { code: 'ErrFieldInvalid' }],
      [
        { name: 'x', cronSchedule: 5 },
        { code: 'ErrInvalidCron', field: 'cronSchedule' },
      ],
      [{ name: 'x', cronSchedule: '* * * * * *' }, { code: 'ErrInvalidCron' }],
      [[], { code: 'ErrFieldInvalid', field: 'task' }],
    ];
    for (const [body, expected] of cases) {
      expect(await refusal(await send('POST', `${id}/tasks`, { body })), JSON.stringify(body)).toMatchObject({
        status: 400,
        ...expected,
      });
    }
    expect(await tasks()).toEqual({});
  });

  it('files: an archive of no paths is ErrFieldInvalid `paths`, nothing written', async () => {
    for (const body of [{}, [], [5]]) {
      const res = await refusal(await send('POST', `${id}/archive/out.zip`, { body }));
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, code: 'ErrFieldInvalid' });
    }
    expect(await refusal(await send('POST', `${id}/archive/out.zip`, { body: {} }))).toMatchObject({
      field: 'paths',
    });
    expect(await exists(join(id, 'out.zip'))).toBe(false);
  });
});
