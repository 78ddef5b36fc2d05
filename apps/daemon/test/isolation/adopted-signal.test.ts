/**
 * A stop signal reaches the game itself in bubblewrap even after a daemon restart re-adopted the server
 * (docs/security.md § Isolation model, docs/daemon.md § Supervision): bwrap does not forward signals, so one sent to
 * it would end bwrap and leave the game to be killed instead of stopped.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_GAME } from '../helpers/test-daemon';
import { DaemonChild } from '../supervision/daemon-child';

const usable = process.getuid?.() === 0 && existsSync('/usr/bin/bwrap');

describe.skipIf(!usable)('a re-adopted bubblewrapped server', () => {
  let d: DaemonChild;
  const id = 'adopted-signal';
  beforeAll(async () => {
    d = await DaemonChild.create({ isolation: { bubblewrap: 'required' } });
    await d.start();
  });
  afterAll(() => d?.cleanup());

  it('gets its stop signal after the daemon was killed and started again', async () => {
    const game = { run: { command: `${process.execPath} ${FAKE_GAME}`, stopCode: 15 } };
    expect((await d.request('PUT', `/daemon/server/${id}`, game)).status).toBe(200);
    expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    const first = await d.socket(id);
    await first.waitForConsole('fake-game ready');
    first.close();
    await d.stop('SIGKILL');
    await d.start();
    const after = await d.socket(id);
    expect((await d.request('POST', `/daemon/server/${id}/stop?wait=true`)).status).toBe(204);
    await after
      .waitForConsole(/fake-game: got SIGTERM[^]*Server exited with code 0/)
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\n${after.consoleText()}`);
      });
    after.close();
  });
});
