/**
 * hearth-daemon.service inside a root as systemd would run it (no systemd in a chroot): its RuntimeDirectory made
 * under /run, its ExecStart run as its User= (root when none) with only its Environment=; resolves with the
 * process once the daemon says it listens.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Chroot } from './chroot';
import { readServiceUnit } from './unit';

export async function startNodeService(root: Chroot): Promise<{ process: ChildProcess; output(): string }> {
  const unit = readServiceUnit(join(root.dir, 'lib/systemd/system/hearth-daemon.service'));
  if (unit.runtimeDirectory)
    mkdirSync(join(root.dir, 'run', unit.runtimeDirectory), { recursive: true, mode: 0o755 });
  const { uid, gid } = root.account(unit.user ?? 'root');
  const child = root.spawnAs(uid, gid, unit.execStart, unit.environment);
  let out = '';
  await new Promise<void>((done, fail) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/hearth daemon: node \S+ listening on/.test(out)) done();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`hearth daemon exited (${code}): ${out}`)));
  });
  return { process: child, output: () => out };
}
