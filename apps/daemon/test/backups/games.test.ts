/**
 * Real game servers from the bundled templates backed up WHILE RUNNING (docs/backups.md § Hooks): Freeciv's
 * template declares `save` waiting for "Game saved as", so its snapshot holds the savegame written just before;
 * Minetest (no console commands on its standard input) has none, so its snapshot is marked as-is. Both games keep
 * running through the backup, and a snapshot's world restores into the stopped server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupDetails, BackupTree } from '@hearth/contract';
import { backupNow, json } from '../helpers/backups';
import { waitFor } from '../helpers/poll';
import { TestSocket } from '../helpers/socket';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon';

const TEMPLATES = join(import.meta.dirname, '..', '..', '..', 'panel', 'templates');

interface Case {
  name: 'freeciv-server' | 'minetest-server';
  program: string;
  ready: (port: number) => string;
  hooks: 'ran' | 'none';
  /** The folder the game keeps its world in, in the snapshot. */
  world: string;
}

const cases: Case[] = [
  {
    name: 'freeciv-server',
    program: '/usr/games/freeciv-server',
    ready: (port) => `Now accepting new client connections on port ${port}`,
    hooks: 'ran',
    world: 'saves',
  },
  {
    name: 'minetest-server',
    program: '/usr/lib/minetest/minetestserver',
    ready: (port) => `listening on 127.0.0.1:${port}`,
    hooks: 'none',
    world: 'worlds/world',
  },
];

function available(c: Case): boolean {
  if (existsSync(c.program)) return true;
  if (process.env.CI === 'true') throw new Error(`CI needs the real game server: ${c.program} is missing`);
  console.warn(`skipping the ${c.name} backup test: ${c.program} is missing`);
  return false;
}

/** A real game's start under heavy load: minutes, not the helpers' default 20 s. */
const GAME_WAIT_MS = 240_000;

type Definition = { data: Record<string, { value?: unknown }> } & Record<string, unknown>;

function bundledDefinition(name: string, port: number): Definition {
  const template = JSON.parse(readFileSync(join(TEMPLATES, name, `${name}.json`), 'utf8')) as Definition;
  for (const [key, value] of Object.entries({ ip: '127.0.0.1', port })) {
    const variable = template.data[key];
    if (!variable) throw new Error(`${name} has no '${key}' variable`);
    variable.value = value;
  }
  return template;
}

for (const c of cases) {
  // Generous: on the 2-core CI machine at load ~20 installing, starting and restarting a real game took more than
  // 3 minutes once; every wait below is for a condition, the cap only stops a hang.
  describe.skipIf(!available(c))(`${c.name} backed up while running`, { timeout: 600_000 }, () => {
    let d: TestDaemon;
    const id = `${c.name}-backup`;
    const port = 20000 + Math.floor(Math.random() * 20000);

    beforeAll(async () => {
      d = await startTestDaemon();
      const created = await d.request('PUT', `/daemon/server/${id}`, {
        token: await d.admin(),
        body: bundledDefinition(c.name, port),
      });
      expect(created.status).toBe(200);
    }, 60_000);
    afterAll(async () => d?.close());

    it(`snapshots the running game (hooks: ${c.hooks}) and keeps it running`, async () => {
      const admin = await d.admin();
      const socket = await TestSocket.open(d.url, id, admin);
      try {
        expect(
          (await d.request('POST', `/daemon/server/${id}/install?wait=true`, { token: admin })).status,
        ).toBe(204);
        expect(
          (await d.request('POST', `/daemon/server/${id}/start?wait=false`, { token: admin })).status,
        ).toBe(202);
        await waitFor(() => socket.consoleText().includes(c.ready(port)), 'the game to be ready', {
          timeoutMs: GAME_WAIT_MS,
        });
        const backupId = await backupNow(d, id);
        const details = await json<BackupDetails>(
          await d.request('GET', `/daemon/server/${id}/backup/${backupId}`, { token: admin }),
        );
        expect(details).toMatchObject({ hooks: c.hooks, asIs: c.hooks === 'none', trigger: 'manual' });
        if (c.hooks === 'ran') {
          expect(socket.consoleText()).toContain('Game saved as');
          const saves = await json<BackupTree>(
            await d.request('GET', `/daemon/server/${id}/backup/${backupId}/tree?path=${c.world}`, {
              token: admin,
            }),
          );
          expect(saves.entries.some((e) => /^freeciv-.*\.sav/.test(e.name))).toBe(true);
        } else {
          const world = await d.request(
            'GET',
            `/daemon/server/${id}/backup/${backupId}/tree?path=${c.world}`,
            { token: admin },
          );
          expect(world.status).toBe(200);
        }
        const status = await json<{ running: boolean }>(
          await d.request('GET', `/daemon/server/${id}/status`, { token: admin }),
        );
        expect(status.running).toBe(true);
        expect(
          (await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token: admin })).status,
        ).toBe(204);
        const restored = await d.request('POST', `/daemon/server/${id}/backup/${backupId}/restore`, {
          token: admin,
          body: { paths: [c.world] },
        });
        expect(restored.status, await restored.clone().text()).toBe(200);
        expect(
          (await d.request('POST', `/daemon/server/${id}/start?wait=false`, { token: admin })).status,
        ).toBe(202);
        // The game starts on the restored world: its ready line a second time.
        await waitFor(
          () => socket.consoleText().split(c.ready(port)).length > 2,
          'the restored game to be ready',
          { timeoutMs: GAME_WAIT_MS },
        );
        expect(
          (await d.request('POST', `/daemon/server/${id}/stop?wait=true`, { token: admin })).status,
        ).toBe(204);
      } finally {
        socket.close();
      }
    });
  });
}
