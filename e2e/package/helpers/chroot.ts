/**
 * A fresh Debian root (scripts/ci/debian-rootfs.sh) unpacked into a temporary folder, with /proc and /dev mounted
 * so dpkg, setpriv and Node work inside `chroot`. `close()` unmounts and deletes it — never deleting while
 * anything is still mounted below it (a bound /dev would take the host's device nodes with it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface Chroot {
  dir: string;
  /** A command inside as root; its output (stdout + stderr), throwing with it when the exit is not 0. */
  run(args: string[], env?: Record<string, string>): string;
  /** A long-running command inside as `uid:gid`, with only `env` in its environment. */
  spawnAs(uid: number, gid: number, args: string[], env: Record<string, string>): ChildProcess;
  /** uid and gid of an account of the root's /etc/passwd. */
  account(name: string): { uid: number; gid: number };
  close(): void;
}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function mountsBelow(dir: string): string[] {
  return readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((point) => point === dir || point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
}

export function makeChroot(): Chroot {
  const base = mkdtempSync(join(tmpdir(), 'hearth-deb-'));
  const dir = join(base, 'root');
  const tar = join(base, 'rootfs.tar');
  execFileSync('sh', [join(ROOT, 'scripts/ci/debian-rootfs.sh'), tar], { stdio: 'pipe' });
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('tar', ['-xf', tar, '-C', dir, '--numeric-owner']);
  rmSync(tar);
  execFileSync('mount', ['-t', 'proc', 'proc', join(dir, 'proc')]);
  execFileSync('mount', ['--bind', '/dev', join(dir, 'dev')]);
  execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', join(dir, 'run')]);
  const env = (extra: Record<string, string> = {}) => ({ PATH, LANG: 'C.UTF-8', HOME: '/root', ...extra });
  return {
    dir,
    run(args, extra) {
      try {
        return execFileSync('chroot', [dir, ...args], { env: env(extra), stdio: 'pipe' }).toString();
      } catch (err) {
        const e = err as { stdout?: Buffer; stderr?: Buffer; message: string };
        throw new Error(`${args.join(' ')}: ${e.message}\n${e.stdout?.toString()}${e.stderr?.toString()}`, {
          cause: err,
        });
      }
    },
    spawnAs(uid, gid, args, extra) {
      return spawn('chroot', [`--userspec=${uid}:${gid}`, '--groups=', dir, ...args], {
        env: { PATH, LANG: 'C.UTF-8', ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    },
    account(name) {
      const line = readFileSync(join(dir, 'etc/passwd'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`${name}:`));
      if (!line) throw new Error(`no account ${name} in the root`);
      const [, , uid, gid] = line.split(':');
      return { uid: Number(uid), gid: Number(gid) };
    },
    close() {
      for (const point of mountsBelow(dir)) execFileSync('umount', ['-l', point]);
      const left = mountsBelow(dir);
      if (left.length > 0) throw new Error(`still mounted, not deleting ${base}: ${left.join(', ')}`);
      rmSync(base, { recursive: true, force: true });
    },
  };
}
