/**
 * The docker environment takes the same argv as the others (docs/daemon.md § Variables and commands): a
 * hostile value set by a user is one argument of the container's entrypoint command, for install steps and the
 * run command alike, and a template's own `sh -c` script inside the container receives it literally.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';
import { dockerGameDefinition, removeContainersOf, requireDocker } from './helpers';

const available = await requireDocker();
const HOSTILE = `it's "odd" $(touch pwned) \`touch pwned\`; touch pwned && echo \\ *`;
/** Writes its arguments, each followed by `|`, to `file` (the script only expands "$@": no value is code). */
const argsTo = (file: string) => `sh -c 'printf "%s|" "$@" > ${file}' sh`;

describe.skipIf(!available)('variables in the docker environment', { timeout: 120_000 }, () => {
  let d: TestDaemon;
  const id = `dargv-${process.pid}`;
  const file = (name: string) => join(d.config.serversDir ?? '', id, name);

  beforeAll(async () => {
    d = await startTestDaemon({ docker: { socketPath: '/var/run/docker.sock', user: '' } });
    const definition = {
      ...dockerGameDefinition({}, { command: `${argsTo('run.txt')} \${greeting} end` }),
      install: [
        { type: 'command', commands: [`${argsTo('install.txt')} a \${greeting} b`] },
        { type: 'command', commands: ["sh -c 'printf %s ${greeting} > shell.txt'"] },
      ],
    };
    const created = await d.request('PUT', `/daemon/server/${id}`, {
      token: await d.admin(),
      body: definition,
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await d?.close();
    if (d) await removeContainersOf(d.config.serversDir ?? '');
  });

  it('a hostile value is one argument of install steps and the run command, and literal in a script', async () => {
    const user = await d.user(id, ['editServerData', 'installServer', 'startServer']);
    const set = await d.request('POST', `/daemon/server/${id}/data`, {
      token: user,
      body: { data: { greeting: { value: HOSTILE } } },
    });
    expect(set.status).toBe(204);
    const install = await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: user });
    expect(install.status, await install.clone().text()).toBe(204);
    expect(await readFile(file('install.txt'), 'utf8')).toBe(`a|${HOSTILE}|b|`);
    expect(await readFile(file('shell.txt'), 'utf8')).toBe(HOSTILE);
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`, { token: user })).status).toBe(
      204,
    );
    const ran = await waitFor(
      async () => (existsSync(file('run.txt')) ? readFile(file('run.txt'), 'utf8') : null),
      'run.txt',
    );
    expect(ran).toBe(`${HOSTILE}|end|`);
    expect(existsSync(file('pwned'))).toBe(false);
  });
});
