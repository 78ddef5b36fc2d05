/**
 * Standard and tty servers under a root daemon (docs/security.md "Isolation model"), with bubblewrap and with
 * setpriv alone: the install `command` step and the main run each report their ids and what they can reach, from
 * inside the real process. Each runs under its own uid ≠ 0 with no groups and no_new_privs, sees none of the
 * daemon's environment, reads none of Hearth's files laid out as `hearth start` leaves them (panel key, database,
 * config, node config, SFTP host key), cannot read, list or write another server's folder, and writes its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { FAKE_GAME } from '../helpers/test-daemon';
import { generateTestKeys } from '../helpers/tokens';
import { startIsolatedDaemon, type IsolatedDaemon } from './isolated-daemon';
import { hearthStartLayout, type HearthLayout } from './layout';
import { parseReport, probeScript } from './probe';

const isRoot = process.getuid?.() === 0;
const hasBwrap = existsSync('/usr/bin/bwrap');
if (process.env.CI === 'true' && (!isRoot || !hasBwrap)) {
  throw new Error('CI runs the isolation suite as root with bubblewrap installed (.ci/run)');
}
if (!isRoot)
  console.warn('skipping the isolation suite: switching a server to its own uid needs a root daemon');

const modes = [
  { name: 'bubblewrap', setting: 'required', mode: 'uid-bubblewrap', available: hasBwrap },
  { name: 'setpriv only', setting: 'off', mode: 'uid', available: true },
] as const;

interface RunAs {
  uid: number;
  gid: number;
}

for (const m of modes) {
  describe.skipIf(!isRoot || !m.available)(`servers under a root daemon (${m.name})`, () => {
    let layout: HearthLayout;
    let d: IsolatedDaemon;
    const marker = join('/tmp', `hearth-isolation-marker-${process.pid}-${m.setting}`);
    const victimSecret = () => join(layout.serversDir, 'victim', 'secret.txt');

    const runAsOf = async (id: string): Promise<RunAs> => {
      const file = JSON.parse(await readFile(join(layout.serversDir, `${id}.json`), 'utf8')) as {
        runAs: RunAs;
      };
      return file.runAs;
    };
    const report = async (id: string, phase: string) => {
      const path = join(layout.serversDir, id, `report-${phase}.txt`);
      return parseReport(await waitFor(() => readFile(path, 'utf8'), `${id} report ${phase}`));
    };
    const probeDefinition = (type: 'standard' | 'tty') => {
      const targets = {
        read: [...layout.secrets, victimSecret(), join(layout.serversDir, 'victim.json')],
        list: [
          layout.dataDir,
          layout.serversDir,
          join(layout.serversDir, 'victim'),
          join(layout.dataDir, 'keys'),
        ],
        write: [join(layout.serversDir, 'victim', 'planted.txt'), join(layout.dataDir, 'planted.txt')],
        hostTmpMarker: marker,
      };
      return {
        install: [
          { type: 'writefile', target: 'probe.sh', text: probeScript(targets) },
          { type: 'command', commands: ['sh probe.sh install'] },
        ],
        run: { command: 'sh probe.sh run' },
        environment: { type },
      };
    };

    beforeAll(async () => {
      process.env.HEARTH_ISOLATION_TEST_SECRET = 'must-not-leak';
      layout = await hearthStartLayout();
      await writeFile(marker, 'host /tmp');
      d = await startIsolatedDaemon(layout.dataDir, await generateTestKeys(), m.setting);
      const victim = {
        install: [{ type: 'writefile', target: 'secret.txt', text: 'the other server’s world' }],
        run: { command: 'true' },
      };
      expect((await d.request('PUT', '/daemon/server/victim', victim)).status).toBe(200);
      expect((await d.request('POST', '/daemon/server/victim/install?wait=true')).status).toBe(204);
      for (const type of ['standard', 'tty'] as const) {
        expect((await d.request('PUT', `/daemon/server/probe-${type}`, probeDefinition(type))).status).toBe(
          200,
        );
      }
    });
    afterAll(async () => {
      delete process.env.HEARTH_ISOLATION_TEST_SECRET;
      await d?.daemon.close();
      await rm(marker, { force: true });
      if (layout) await rm(layout.dataDir, { recursive: true, force: true });
    });

    it('says once at start which isolation is in force, and /daemon/features reports it', async () => {
      const said = d.logs.filter((line) => /isolation: [a-z-]+ — /.test(line));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`isolation: ${m.mode} — `);
      const features = (await (await d.request('GET', '/daemon/features')).json()) as { isolation?: string };
      expect(features.isolation).toBe(m.mode);
    });

    it('leaves Hearth’s files unreadable to other users and each server folder private to its uid', async () => {
      const mode = async (path: string) => (await stat(path)).mode & 0o777;
      expect(await mode(layout.dataDir)).toBe(0o711);
      expect(await mode(layout.serversDir)).toBe(0o711);
      expect(await mode(join(layout.dataDir, 'keys'))).toBe(0o700);
      for (const secret of layout.secrets) expect(((await mode(secret)) & 0o077).toString(8)).toBe('0');
      expect(await mode(join(layout.serversDir, 'victim.json'))).toBe(0o600);
      const victim = await stat(join(layout.serversDir, 'victim'));
      expect({ uid: victim.uid, gid: victim.gid, mode: victim.mode & 0o777 }).toEqual({
        ...(await runAsOf('victim')),
        mode: 0o700,
      });
    });

    for (const type of ['standard', 'tty'] as const) {
      it(`runs a ${type} server's install command and main process under its own uid, shut out of Hearth`, async () => {
        const id = `probe-${type}`;
        expect((await d.request('POST', `/daemon/server/${id}/install?wait=true`)).status).toBe(204);
        expect((await d.request('POST', `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
        const runAs = await runAsOf(id);
        expect(runAs.uid).not.toBe(0);
        expect(runAs.uid).toBeGreaterThanOrEqual(65_536);
        expect(runAs.uid).toBeLessThanOrEqual(99_999);
        expect(runAs.uid).not.toBe((await runAsOf('victim')).uid);
        // Every target exists and root reads it: a "denied" below is the isolation, not a missing file.
        for (const path of [...layout.secrets, victimSecret()])
          expect(readFileSync(path).length).toBeGreaterThan(0);
        for (const phase of ['install', 'run']) {
          const r = await report(id, phase);
          expect({ phase, uid: r.get('uid'), gid: r.get('gid'), groups: r.get('groups') }).toEqual({
            phase,
            uid: [String(runAs.uid)],
            gid: [String(runAs.gid)],
            groups: [String(runAs.gid)],
          });
          expect(r.get('no-new-privs')).toEqual(['1']);
          expect(r.get('hearth-env')).toEqual(['absent']);
          expect(r.get('home')).toEqual([join(layout.serversDir, id)]);
          expect(r.get('read-ok')).toBeUndefined();
          // bubblewrap's masks leave only the bare path to the server's own folder; without it nothing lists.
          expect(r.get('list-ok')).toEqual(
            m.setting === 'required'
              ? [`${layout.dataDir}:servers `, `${layout.serversDir}:${id} `]
              : undefined,
          );
          expect(r.get('write-ok')).toBeUndefined();
          expect(r.get('read-denied')).toHaveLength(layout.secrets.length + 2);
          expect(r.get('own-write')).toEqual(['ok']);
          expect(r.get('host-tmp')).toEqual([m.setting === 'required' ? 'hidden' : 'visible']);
          expect((await stat(join(layout.serversDir, id, `own-${phase}.txt`))).uid).toBe(runAs.uid);
        }
        expect(existsSync(join(layout.serversDir, 'victim', 'planted.txt'))).toBe(false);
      });
    }

    it('hands files the daemon makes for a server (install steps, uploads, folders) to the server’s uid', async () => {
      const runAs = await runAsOf('victim');
      const form = new FormData();
      form.append('file', new Blob(['uploaded']), 'upload.txt');
      const url = `${d.url}/daemon/server/victim/file/in/new/upload.txt`;
      const headers = { authorization: `Bearer ${await d.admin()}` };
      expect((await fetch(url, { method: 'PUT', headers, body: form })).status).toBe(204);
      const root = join(layout.serversDir, 'victim');
      for (const path of ['secret.txt', 'in', 'in/new', 'in/new/upload.txt']) {
        const info = await stat(join(root, path));
        expect({ path, uid: info.uid, gid: info.gid }).toEqual({ path, ...runAs });
      }
    });

    it('delivers a stop signal to the game itself', async () => {
      const game = { run: { command: `${process.execPath} ${FAKE_GAME}`, stopCode: 15 } };
      expect((await d.request('PUT', '/daemon/server/signal-game', game)).status).toBe(200);
      expect((await d.request('POST', '/daemon/server/signal-game/start?wait=true')).status).toBe(204);
      const consoleText = async () =>
        ((await (await d.request('GET', '/daemon/server/signal-game/console')).json()) as { logs: string })
          .logs;
      await waitFor(async () => (await consoleText()).includes('fake-game ready'), 'the game is ready');
      expect((await d.request('POST', '/daemon/server/signal-game/stop?wait=true')).status).toBe(204);
      const text = await consoleText();
      expect(text).toContain('fake-game: got SIGTERM');
      expect(text).toContain('Server exited with code 0');
    });
  });
}
