/**
 * The two Debian game-server templates Hearth bundles (apps/panel/templates/freeciv-server and
 * minetest-server), taken as shipped, created as servers on the real daemon: install, start, wait for the
 * game's own "ready" line, stop with the template's stop setting, and see a clean exit.
 * Only the listen address and port are changed, so parallel runs do not collide.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from './helpers/socket';
import { startTestDaemon, type TestDaemon } from './helpers/test-daemon';

const TEMPLATES = join(import.meta.dirname, '..', '..', 'panel', 'templates');

interface Case {
  name: 'freeciv-server' | 'minetest-server';
  program: string;
  package: string;
  ready: (port: number) => string;
}

const cases: Case[] = [
  {
    name: 'freeciv-server',
    program: '/usr/games/freeciv-server',
    package: 'freeciv-server',
    ready: (port) => `Now accepting new client connections on port ${port}`,
  },
  {
    name: 'minetest-server',
    program: '/usr/lib/minetest/minetestserver',
    package: 'minetest-server',
    ready: (port) => `listening on 127.0.0.1:${port}`,
  },
];

/** In CI a missing game server is a failure; locally the suite is skipped with the reason printed. */
function available(c: Case): boolean {
  if (existsSync(c.program)) return true;
  const reason = `${c.program} is missing (apt-get install ${c.package})`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real game server: ${reason}`);
  console.warn(`skipping the ${c.name} template test: ${reason}`);
  return false;
}

type Definition = { data: Record<string, { value?: unknown }> } & Record<string, unknown>;

/** The bundled template file as shipped, with the address and port set for this test. */
function bundledDefinition(name: string, port: number): Definition {
  const text = readFileSync(join(TEMPLATES, name, `${name}.json`), 'utf8');
  const template = JSON.parse(text) as Definition;
  for (const [key, value] of Object.entries({ ip: '127.0.0.1', port })) {
    const variable = template.data[key];
    if (!variable) throw new Error(`${name} has no '${key}' variable`);
    variable.value = value;
  }
  return template;
}

for (const c of cases) {
  describe.skipIf(!available(c))(`bundled template ${c.name} on the real daemon`, () => {
    let d: TestDaemon;
    const id = `${c.name}-template`;
    // Minetest speaks UDP, Freeciv TCP; a random high port keeps parallel runs apart.
    const port = 20000 + Math.floor(Math.random() * 20000);

    beforeAll(async () => {
      // Freeciv refuses root: a root daemon runs it under the server's own uid, and makes the data dir searchable.
      d = await startTestDaemon();
    });
    afterAll(async () => d?.close());

    it('installs, starts until the game says it is ready, and stops cleanly', async () => {
      const admin = await d.admin();
      const created = await d.request('PUT', `/daemon/server/${id}`, {
        token: admin,
        body: bundledDefinition(c.name, port),
      });
      expect(created.status).toBe(200);
      const token = await d.admin(id);
      const socket = await TestSocket.open(d.url, id, token);
      try {
        const install = await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token });
        expect(install.status).toBe(204);
        const start = await d.request('POST', `/daemon/server/${id}/start?wait=false`, { token });
        expect(start.status).toBe(202);
        await socket.waitForConsole(c.ready(port));
        const stop = await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token });
        expect(stop.status).toBe(204);
        await socket.waitForConsole('Server exited with code 0');
        const status = await d.request('GET', `/daemon/server/${id}/status`, { token });
        expect(((await status.json()) as { running: boolean }).running).toBe(false);
      } finally {
        socket.close();
      }
    });
  });
}
