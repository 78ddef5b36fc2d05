/**
 * The daemon's SFTP login limiter and a panel that cannot answer, with OpenSSH's sftp against a real daemon
 * whose panel sits behind a counting relay (helpers/panel-relay.ts): the relay's count of
 * `POST /api/nodes/sftp-auth` shows whether the daemon asked the panel. Client addresses are loopback aliases
 * (127.0.0.x via BindAddress). `sftp.failuresPerMinute` is 3 here (docs/files.md "SFTP").
 *
 * - After 3 failed logins of one account (any name form, any address) or from one address (any account),
 *   further attempts are refused without asking the panel, even with the right password; other accounts and
 *   addresses log in; a success clears the account's count; the window ends a minute after its first failure.
 * - A panel that refuses connections or never answers: the login is refused (fail closed) with a log line that
 *   names the cause, the client is not left waiting, such refusals do not count as failures, and logins work as
 *   soon as the panel is back.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { filesFixture, type FilesFixture } from './helpers/files-fixture';
import { PanelRelay } from './helpers/panel-relay';
import { expectLoginRefused, expectSftpOk, runSftp } from './helpers/sftp-client';

const LIMIT = 3;
const WINDOW_MS = 60_000;
const full = { sftpServer: true, viewServerFiles: true, putServerFiles: true };

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

describe('SFTP login limits and an unreachable panel', () => {
  let f: FilesFixture;
  let relay: PanelRelay | undefined;
  const logs: LogLine[] = [];
  /** When the windows of the blocked account and address opened, at the latest. */
  const windows: Record<'account' | 'address', number> = { account: 0, address: 0 };
  let blockedAccount: { email: string; password: string } | undefined;
  let blockedAddressUser: { email: string; password: string } | undefined;

  const asked = () => relay?.count('POST', '/api/nodes/sftp-auth') ?? 0;
  const login = (name: string, password: string, from: string, via?: 'config') =>
    runSftp(f.sftpPort, name, password, ['pwd'], { bind: from, via });
  const nameOf = (u: { email: string }) => `${u.email}#${f.serverId}`;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          logs.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    f = await filesFixture('sqlite', {
      failuresPerMinute: LIMIT,
      log: pino({ level: 'info' }, sink),
      daemonPanelUrl: async (panelUrl) => {
        relay = new PanelRelay(panelUrl);
        await relay.start();
        return relay.url;
      },
    });
  });
  // The outage tests restore the relay themselves; this keeps a failed one from taking the next tests down too.
  afterEach(async () => {
    await relay?.restore();
  });
  afterAll(async () => {
    await relay?.close();
    await f?.close();
  });

  it('refuses an account after 3 failures without asking the panel, from any address; others log in', async () => {
    const ann = await f.user(full);
    blockedAccount = ann;
    // Three failures, each from its own address and in another form of the same account's name.
    const forms: Array<[string, string, 'config' | undefined]> = [
      [`${ann.email}#${f.serverId}`, '127.0.0.11', undefined],
      [`${ann.email.toUpperCase()}#${f.serverId}`, '127.0.0.12', undefined],
      [`${ann.email}|${f.serverId}`, '127.0.0.13', 'config'],
    ];
    for (const [name, from, via] of forms) {
      const before = asked();
      expectLoginRefused(await login(name, 'wrong password', from, via), `${name} from ${from}`);
      expect(asked(), 'the panel judged the failure').toBe(before + 1);
      windows.account ||= Date.now();
    }
    // The right password, from an address that never failed: refused, and the panel is not asked.
    const before = asked();
    expectLoginRefused(await login(nameOf(ann), ann.password, '127.0.0.14'), 'blocked account');
    expect(asked()).toBe(before);
    // Another account from an address that failed once logs in (the panel is asked).
    const bob = await f.user(full);
    expectSftpOk(await login(nameOf(bob), bob.password, '127.0.0.11'), 'another account');
    expect(asked()).toBe(before + 1);
  });

  it('refuses an address after 3 failures without asking the panel, for every account; others log in', async () => {
    const [cid, dee, eve, fay] = [
      await f.user(full),
      await f.user(full),
      await f.user(full),
      await f.user(full),
    ];
    blockedAddressUser = fay;
    for (const u of [cid, dee, eve]) {
      const before = asked();
      expectLoginRefused(await login(nameOf(u), 'wrong password', '127.0.0.21'), u.email);
      expect(asked()).toBe(before + 1);
      windows.address ||= Date.now();
    }
    const before = asked();
    expectLoginRefused(await login(nameOf(fay), fay.password, '127.0.0.21'), 'blocked address');
    expect(asked()).toBe(before);
    // From another address: a fresh account and one that failed once from the blocked address.
    expectSftpOk(await login(nameOf(fay), fay.password, '127.0.0.22'), 'another address');
    expectSftpOk(await login(nameOf(cid), cid.password, '127.0.0.22'), 'account with one failure');
    expect(asked()).toBe(before + 2);
  });

  it("a success clears the account's failures", async () => {
    const gus = await f.user(full);
    const attempts: Array<[string, 'wrong' | 'right']> = [
      ['127.0.0.31', 'wrong'],
      ['127.0.0.32', 'wrong'],
      ['127.0.0.33', 'right'],
      ['127.0.0.34', 'wrong'],
      ['127.0.0.35', 'wrong'],
      ['127.0.0.36', 'right'], // four failures in the window, but never three since the last success
    ];
    for (const [from, which] of attempts) {
      const r = await login(nameOf(gus), which === 'right' ? gus.password : 'wrong password', from);
      if (which === 'right') expectSftpOk(r, from);
      else expectLoginRefused(r, from);
    }
  });

  it('a panel that refuses connections: refused with a log line, not counted, and logins work once it is back', async () => {
    const hal = await f.user(full);
    await relay?.cut();
    const before = asked();
    // More attempts than the limit, same account, same address: an outage is not a wrong password.
    for (let i = 0; i <= LIMIT; i += 1) {
      expectLoginRefused(await login(nameOf(hal), hal.password, '127.0.0.41'), `attempt ${i + 1}`);
    }
    expect(asked()).toBe(before); // nothing reached the panel
    const lines = logs.filter((l) => l.user === nameOf(hal));
    expect(lines).toHaveLength(LIMIT + 1);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 40,
        ip: '127.0.0.41',
        msg: 'sftp login refused: the panel cannot be reached',
      });
      expect(String(line.cause)).toContain('ECONNREFUSED');
    }
    await relay?.restore();
    expectSftpOk(await login(nameOf(hal), hal.password, '127.0.0.41'), 'panel back');
    expect(asked()).toBe(before + 1);
  });

  it('a panel that never answers: refused after the daemon stops waiting, and logins work once it answers', async () => {
    const ida = await f.user(full);
    relay?.silence();
    const before = asked();
    // The client is answered (refused) rather than left hanging: the daemon gives up on the panel.
    expectLoginRefused(await login(nameOf(ida), ida.password, '127.0.0.42'), 'silent panel');
    expect(asked()).toBe(before + 1); // the daemon did ask
    const line = logs.find((l) => l.user === nameOf(ida));
    expect(line).toMatchObject({
      level: 40,
      ip: '127.0.0.42',
      msg: 'sftp login refused: the panel cannot be reached',
    });
    expect(String(line?.cause)).toMatch(/timeout|timed out|aborted/i);
    await relay?.restore();
    expectSftpOk(await login(nameOf(ida), ida.password, '127.0.0.42'), 'panel answers again');
  });

  it('the window ends a minute after its first failure: the blocked account and address log in again', async () => {
    if (!blockedAccount || !blockedAddressUser) throw new Error('the blocking tests did not run');
    // The daemon counted each first failure before the client saw it refused, so these instants are after
    // the windows opened: waiting until a minute past them outlasts both windows.
    const until = Math.max(windows.account, windows.address) + WINDOW_MS + 1_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
    const before = asked();
    expectSftpOk(await login(nameOf(blockedAccount), blockedAccount.password, '127.0.0.14'), 'account');
    expectSftpOk(
      await login(nameOf(blockedAddressUser), blockedAddressUser.password, '127.0.0.21'),
      'address',
    );
    expect(asked()).toBe(before + 2);
  }, 120_000);
});
