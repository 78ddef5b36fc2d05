/**
 * While no daemon is attached (killed with SIGKILL): a game that exits has its exact exit reported by the
 * next daemon and the crash policy applied; a game that floods its console is never blocked (its holder keeps
 * reading, bounded) and the end of the flood is replayed (docs/daemon.md § Supervision).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, startTimeOf } from '../../src/environment/holder/proc';
import { readState } from '../../src/environment/holder/run-dir';
import { waitFor } from '../helpers/poll';
import { counterGameDefinition, DaemonChild } from './daemon-child';
import { gamePid, pidsWith } from './processes';

/** The holder's record of a server's run (fails the test when there is none). */
async function recordOf(d: DaemonChild, id: string) {
  const state = await readState(d.runDirOf(id));
  if (!state || state === 'invalid') throw new Error(`no run record for ${id}`);
  return state;
}

for (const env of ['standard', 'tty'] as const) {
  describe(`${env}: what happens while the daemon is away`, { timeout: 120_000 }, () => {
    let d: DaemonChild;
    beforeAll(async () => {
      d = await DaemonChild.create();
      await d.start();
    });
    afterAll(() => d?.cleanup());

    async function startServer(id: string, marker: string, extra: Record<string, unknown> = {}) {
      const definition = counterGameDefinition(env, marker, extra);
      expect((await d.request('PUT', `/daemon/server/${id}`, definition)).status).toBe(200);
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
      return gamePid(marker);
    }

    it('reports the exit code the game made meanwhile, then the crash policy restarts it', async () => {
      const id = `crash-${env}`;
      const marker = `--tag ${id}-${process.pid}`;
      const pid = await startServer(id, marker, { autorecover: true });
      const socket = await d.socket(id);
      await socket.waitForConsole('tick 1');
      socket.close();
      const { holder, boot } = await recordOf(d, id);
      await d.stop('SIGKILL');

      process.kill(pid, 'SIGUSR2'); // the game exits with code 7 while nobody supervises it
      await waitFor(async () => !(await isAlive(holder, boot)), 'the holder to record the exit and end');
      expect(await readFile(join(d.runDirOf(id), 'exit'), 'utf8')).toMatch(/^code 7\n/);

      await d.start();
      const after = await d.socket(id);
      after.send({ type: 'replay', since: 0 });
      await after.waitForConsole(
        /The server exited while the daemon was away; its last output:[^\n]*\n[^]*tick 1[^]*Server exited with code 7 after [\d.]+ s[^]*Restarting in/,
      );
      // The crash policy's restart: a new process, and only one.
      const restarted = await waitFor(async () => {
        const pids = await pidsWith(marker);
        return pids.length === 1 && pids[0] !== pid ? pids[0] : null;
      }, 'the restarted game');
      const status = await d.request('GET', `/daemon/server/${id}/status`);
      expect(await status.json()).toMatchObject({ running: true });
      expect(await startTimeOf(restarted)).not.toBeNull();
      expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
      after.close();
    });

    it('keeps reading a flood while no daemon reads it; the end of it is replayed, bounded', async () => {
      const id = `flood-${env}`;
      const marker = `--tag ${id}-${process.pid}`;
      await startServer(id, marker);
      const socket = await d.socket(id);
      socket.send({ type: 'replay', since: 0 });
      await socket.waitForConsole('ready pid');
      const lines = 100_000; // 7.5 MB: far more than a pipe, a terminal and the holder's history hold
      expect(
        (await d.request('POST', `/daemon/server/${id}/console`, { command: `flood ${lines}` })).status,
      ).toBe(204);
      await socket.waitForConsole('flood line 100 ');
      socket.close();
      await d.stop('SIGKILL');

      // The game finishes the flood with no daemon reading: nothing blocks it.
      const done = join(d.serverDirOf(id), 'flood-done');
      await waitFor(() => existsSync(done), 'the flood to finish while the daemon is away');

      await d.start();
      const after = await d.socket(id);
      after.send({ type: 'replay', since: 0 });
      await after.waitForConsole(
        /Re-attached to the running server \(pid \d+\); its recent output:[^\n]*\n[^]*flood done/,
      );
      const replay = after.consoleText();
      const tail = replay.slice(replay.indexOf('its recent output:'));
      expect(tail).toContain(`flood line ${lines - 1} `);
      expect(tail).not.toContain('flood line 100 '); // only the last part: the history is bounded
      expect(Buffer.byteLength(tail)).toBeLessThan(300 * 1024);
      expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
      after.close();
    });
  });
}
