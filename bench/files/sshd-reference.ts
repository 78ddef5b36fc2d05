/**
 * The like-for-like SFTP reference for `bench:files`: a real OpenSSH sshd on loopback with sftp-server as its
 * subsystem, started as the current user on a free high port with throwaway keys, so the comparison with the
 * daemon includes an SSH transport on both sides (the `sftp -D` reference has none).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, tcpAccepts as accepts } from '../../e2e/helpers/net';

export const OPENSSH_SFTP_SERVER = '/usr/lib/openssh/sftp-server';
// sshd refuses to start unless it is run by its absolute path (it re-executes itself).
const SSHD = '/usr/sbin/sshd';

/** Null when the reference can run, else the line to print instead of its figures. */
export function referenceMissing(...programs: string[]): string | null {
  const missing = programs.filter((p) => !existsSync(p));
  return missing.length === 0 ? null : `reference skipped: install openssh-server (no ${missing.join(', ')})`;
}

export const sshdReferenceMissing = () => referenceMissing(SSHD, OPENSSH_SFTP_SERVER);

function writeConfig(dir: string, port: number): string {
  for (const name of ['host', 'user'])
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user.pub')));
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      `PidFile ${join(dir, 'sshd.pid')}`,
      // The bench may run as root; the throwaway key is the only way in.
      'PermitRootLogin prohibit-password',
      `Subsystem sftp ${OPENSSH_SFTP_SERVER}`,
      '',
    ].join('\n'),
  );
  return config;
}

/** Starts sshd, runs `work` with the sftp client arguments that reach it, and stops sshd whatever happens. */
export async function withLoopbackSshd<T>(work: (sftpArgs: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-sshd-'));
  const port = await freePort();
  // Run as root, sshd insists on its privilege-separation directory, which a fresh container lacks.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd = spawn(SSHD, ['-f', writeConfig(dir, port), '-D', '-e'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  sshd.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let failed = false; // a spawn error may come without a 'close'
  const exited = new Promise<void>((resolve) => {
    sshd.once('close', () => resolve());
    sshd.once('error', (error) => ((failed = true), (stderr += String(error)), resolve()));
  });
  const running = () => !failed && sshd.exitCode === null && sshd.signalCode === null;
  try {
    for (let i = 0; !(await accepts(port)); i += 1) {
      if (!running() || i >= 100) throw new Error(`sshd did not start on port ${port}: ${stderr}`);
      await sleep(50);
    }
    const key = ['-i', join(dir, 'user'), '-P', String(port)];
    const trust = ['-oStrictHostKeyChecking=no', '-oUserKnownHostsFile=/dev/null'];
    return await work([...key, ...trust, `${userInfo().username}@127.0.0.1`]);
  } finally {
    if (running()) sshd.kill();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
