/** The isolation chain as argv (wrap.ts), the id allocator and the host id checks: pure, no root needed. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@hearth/contract';
import { IdAllocator } from '../../src/isolation/allocator';
import { accountIds, subordinateOverlaps } from '../../src/isolation/host-ids';
import { storedIds } from '../../src/isolation/ids';
import { resolveCommand } from '../../src/isolation/resolve-command';
import { baseEnvironment, wrapSpec, type WrapPlan } from '../../src/isolation/wrap';

const range = { idRangeStart: 70_000, idRangeEnd: 70_003 };
const spec = {
  command: '/usr/bin/java',
  args: ['-jar', 'server.jar'],
  cwd: '/srv/s/a/bin',
  env: { HOME: '/srv/s/a' },
};
const plan: WrapPlan = {
  env: '/usr/bin/env',
  bwrap: null,
  setpriv: '/usr/bin/setpriv',
  ids: { uid: 70_001, gid: 70_001 },
  folder: '/srv/s/a',
  hidden: [],
  baseEnv: { PATH: '/usr/bin:/bin' },
};
const drop = [
  '/usr/bin/setpriv',
  '--reuid=70001',
  '--regid=70001',
  '--clear-groups',
  '--no-new-privs',
  '--inh-caps=-all',
  '--bounding-set=-all',
  '--',
];

describe('the isolation chain', () => {
  it('starts from an empty environment, then drops to the server’s ids before the command', () => {
    const wrapped = wrapSpec(spec, plan);
    expect(wrapped).toEqual({
      command: '/usr/bin/env',
      args: [
        '-i',
        '--',
        'PATH=/usr/bin:/bin',
        'HOME=/srv/s/a',
        ...drop,
        '/usr/bin/java',
        '-jar',
        'server.jar',
      ],
      cwd: '/srv/s/a/bin',
      env: {},
    });
  });

  it('wraps in bubblewrap: system read-only, masks in path order, the folder bound last, no --die-with-parent', () => {
    const hidden = [
      { path: '/srv/s', dir: true },
      { path: '/srv', dir: true },
      { path: '/etc/hearth/node.json', dir: false },
    ];
    const { args } = wrapSpec(spec, { ...plan, bwrap: '/usr/bin/bwrap', hidden });
    const sandbox = args.slice(args.indexOf('/usr/bin/bwrap'), args.indexOf('/usr/bin/setpriv'));
    expect(sandbox).toEqual([
      '/usr/bin/bwrap',
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', '/tmp'],
      ...['--unshare-pid', '--unshare-ipc'],
      ...['--tmpfs', '/srv', '--tmpfs', '/srv/s', '--ro-bind', '/dev/null', '/etc/hearth/node.json'],
      ...['--bind', '/srv/s/a', '/srv/s/a', '--chdir', '/srv/s/a/bin', '--'],
    ]);
    expect(args).not.toContain('--die-with-parent');
    expect(args).not.toContain('--share-net'); // the network is never unshared: games listen on it
    expect(args.slice(-3)).toEqual(['/usr/bin/java', '-jar', 'server.jar']);
  });

  it('keeps what else the spec carries and drops variables env(1) cannot set', () => {
    const withSlot = {
      ...spec,
      env: { 'A=B': 'x', '': 'y', GOOD: 'v=1', NUL: 'a\0b' },
      run: { role: 'main' },
    };
    const wrapped = wrapSpec(withSlot, plan);
    expect(wrapped.run).toEqual({ role: 'main' });
    const assignments = wrapped.args.slice(2, wrapped.args.indexOf('/usr/bin/setpriv'));
    expect(assignments).toEqual(['PATH=/usr/bin:/bin', 'GOOD=v=1']);
  });

  it('passes on only the search path, locale and time zone of the daemon, and TERM for a terminal', () => {
    const daemonEnv = {
      PATH: '/p',
      LANG: 'de_DE.UTF-8',
      TZ: 'UTC',
      HEARTH_PANEL_DATABASE_URL: 'postgres://secret',
    };
    expect(baseEnvironment(daemonEnv, false)).toEqual({ PATH: '/p', LANG: 'de_DE.UTF-8', TZ: 'UTC' });
    expect(baseEnvironment({}, true)).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TERM: 'xterm-256color',
    });
  });

  it('refuses a missing program as spawn would (ENOENT), before anything starts', async () => {
    await expect(resolveCommand('no-such-program-here', '/', '/usr/bin:/bin')).rejects.toMatchObject({
      code: 'ENOENT',
      message: 'spawn no-such-program-here ENOENT',
    });
    await expect(resolveCommand('./missing.sh', '/tmp', '/usr/bin')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await resolveCommand('sh', '/', '/nonexistent:/usr/bin:/bin')).toMatch(/\/sh$/);
  });
});

describe('server ids', () => {
  it('hands out the lowest free id, skips host accounts, and refuses when the range is used up', () => {
    const ids = new IdAllocator(range, new Set([70_001]));
    expect(['a', 'b', 'c'].map((s) => ids.allocate(s).uid)).toEqual([70_000, 70_002, 70_003]);
    expect(ids.allocate('a')).toEqual({ uid: 70_000, gid: 70_000 }); // its own again
    let refused: unknown;
    try {
      ids.allocate('d');
    } catch (err) {
      refused = err;
    }
    expect(isAppError(refused) && refused.code).toBe('ErrServerIdsExhausted');
    ids.release('b');
    expect(ids.allocate('d').uid).toBe(70_002);
  });

  it('claims stored ids only inside the range, never a host account’s, never twice', () => {
    const ids = new IdAllocator(range, new Set([70_001]));
    expect(ids.claim('a', { uid: 70_002, gid: 70_002 })).toBe(true);
    expect(ids.claim('b', { uid: 70_002, gid: 70_002 })).toBe(false);
    expect(ids.claim('b', { uid: 70_001, gid: 70_001 })).toBe(false);
    expect(ids.claim('b', { uid: 69_999, gid: 69_999 })).toBe(false);
    expect(ids.claim('b', { uid: 70_000, gid: 70_003 })).toBe(false);
    expect(ids.claim('a', { uid: 70_002, gid: 70_002 })).toBe(true); // its own, again
  });

  it('reads stored ids only when both are numbers inside the range', () => {
    expect(storedIds({ uid: 70_000, gid: 70_000 }, range)).toEqual({ uid: 70_000, gid: 70_000 });
    for (const raw of [
      undefined,
      null,
      'x',
      { uid: 0, gid: 0 },
      { uid: '70000', gid: 70_000 },
      { uid: 70_000 },
    ]) {
      expect(storedIds(raw, range)).toBeNull();
    }
  });
});

describe('host ids', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-host-ids-'));
    await writeFile(join(dir, 'passwd'), 'root:x:0:0::/root:/bin/sh\ngame:x:70001:70001::/srv:/bin/sh\n');
    await writeFile(join(dir, 'group'), 'games:x:70002:\n\n');
    await writeFile(join(dir, 'subuid'), 'alice:100000:65536\nbob:69000:1001\nbroken\n');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('collects account and group ids, and subordinate ranges that overlap the server range', () => {
    expect(accountIds([join(dir, 'passwd'), join(dir, 'group'), join(dir, 'absent')])).toEqual(
      new Set([0, 70_001, 70_002]),
    );
    expect(subordinateOverlaps(range, [join(dir, 'subuid')])).toEqual([
      `${join(dir, 'subuid')} bob:69000:1001`,
    ]);
  });
});
