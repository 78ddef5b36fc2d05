/**
 * The daemon killed with SIGKILL while a standard or tty server runs: the game keeps running under its holder
 * (same pid), and the next daemon on the same data re-adopts it — status running, console replay with output
 * from before the kill, input reaching the game, a start refused, exactly one game process, stop reporting
 * the exit (docs/daemon.md § Supervision).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTimeOf } from '../../src/environment/holder/proc';
import { readState } from '../../src/environment/holder/run-dir';
import { waitFor } from '../helpers/poll';
import { counterGameDefinition, DaemonChild } from './daemon-child';
import { gamePid, pidsWith, running } from './processes';

for (const env of ['standard', 'tty'] as const) {
  describe(`${env}: re-adoption after a daemon SIGKILL`, { timeout: 120_000 }, () => {
    let d: DaemonChild;
    const id = `keep-${env}`;
    const marker = `--tag ${id}-${process.pid}`;

    beforeAll(async () => {
      d = await DaemonChild.create();
      await d.start();
    });
    afterAll(() => d?.cleanup());

    const status = async () =>
      (await (await d.request('GET', `/daemon/server/${id}/status`)).json()) as object;
    const send = (command: string) => d.request('POST', `/daemon/server/${id}/console`, { command });

    it('keeps the game running and re-adopts it: console, input, one process, refused start, stop', async () => {
      expect(
        (await d.request('PUT', `/daemon/server/${id}`, counterGameDefinition(env, marker))).status,
      ).toBe(200);
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
      const before = await d.socket(id);
      await before.waitForConsole('tick 2');
      const pid = await gamePid(marker); // the host's pid (the game may see another inside a pid namespace)
      const start = await startTimeOf(pid);
      expect(start).not.toBeNull();
      expect((await send('before the kill')).status).toBe(204);
      await before.waitForConsole('echo: before the kill');
      before.close();

      await d.stop('SIGKILL');
      expect(await running(pid, start ?? 0)).toBe(true); // the same process outlives the daemon
      expect(await pidsWith(marker)).toEqual([pid]);

      await d.start();
      expect(await status()).toMatchObject({ running: true });
      const after = await d.socket(id);
      after.send({ type: 'replay', since: 0 });
      // The holder's child (the game, or the isolation wrapper that leads it) is named by the re-attach line.
      const record = await readState(d.runDirOf(id));
      const child = record && record !== 'invalid' ? record.game.pid : -1;
      const reattached = `Re-attached to the running server \\(pid ${child}\\); its recent output:`;
      await after.waitForConsole(new RegExp(`${reattached}[^]*echo: before the kill`));
      // Live output after the re-attach: ticks the holder had not yet replayed keep coming.
      const ticks = () => [...after.consoleText().matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
      const replayed = Math.max(...ticks());
      await waitFor(() => Math.max(...ticks()) > replayed + 2, 'live ticks after the re-attach');

      expect((await send('after the restart')).status).toBe(204);
      await after.waitForConsole('echo: after the restart');
      const refused = await d.request('POST', `/daemon/server/${id}/start?wait=true`);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ error: { code: 'ErrServerRunning' } });
      expect(await pidsWith(marker)).toEqual([pid]);
      const stats = await waitFor(async () => {
        const s = (await (await d.request('GET', `/daemon/server/${id}/stats`)).json()) as { memory: number };
        return s.memory > 0 ? s : null;
      }, 'stats of the adopted game');
      expect(stats.memory).toBeGreaterThan(0);

      expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
      await after.waitForConsole(/Server exited with code 0 after [\d.]+ s[^]*Stopped on request/);
      expect(await status()).toMatchObject({ running: false });
      expect(await running(pid, start ?? 0)).toBe(false);
      expect(await pidsWith(marker)).toEqual([]);
      expect(existsSync(d.runDirOf(id))).toBe(false);
      after.close();
    });

    it('a kill after re-adoption ends the whole process tree and is reported as SIGKILL', async () => {
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
      const pid = await gamePid(marker);
      expect((await send('child')).status).toBe(204);
      const child = await gamePid(`${id}-${process.pid}-child`);
      await d.stop('SIGKILL');
      await d.start();
      expect(await status()).toMatchObject({ running: true });
      const socket = await d.socket(id);
      expect((await d.request('POST', `/daemon/server/${id}/kill?wait=true`)).status).toBe(204);
      await socket.waitForConsole(/Server exited with signal SIGKILL after [\d.]+ s[^]*Stopped on request/);
      expect(await pidsWith(marker)).toEqual([]); // the game and its child
      expect(await pidsWith(`${id}-${process.pid}-child`)).toEqual([]);
      expect([pid, child].every((p) => p > 0)).toBe(true);
      socket.close();
    });

    it('a graceful shutdown still stops the server; the next daemon finds nothing to adopt', async () => {
      expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
      const pid = await gamePid(marker);
      const start = await startTimeOf(pid);
      await d.stop('SIGTERM');
      expect(await running(pid, start ?? 0)).toBe(false);
      expect(await pidsWith(marker)).toEqual([]);
      expect(existsSync(d.runDirOf(id))).toBe(false);
      await d.start();
      expect(await status()).toMatchObject({ running: false });
    });
  });
}
