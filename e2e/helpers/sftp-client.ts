/**
 * OpenSSH's `sftp` in batch mode with a password (sshpass), and what its answers mean. A refusal is read from
 * what the client says — `Permission denied (password).` for a refused login, `<operation>: Permission denied`
 * for an operation the server answered with SSH_FX_PERMISSION_DENIED — never from a non-zero exit alone. A
 * client that cannot be spawned, is killed (timeout), or fails on its own (sshpass exits 2–6, a usage error)
 * rejects the promise, so such a run fails the test instead of passing for a refusal.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

export interface SftpResult {
  /** 0: every batch command succeeded; 1: a batch command failed; 255: ssh could not connect or log in. */
  code: number;
  stdout: string;
  stderr: string;
}

export interface SftpOptions {
  /** `config` puts the user name in an ssh config file (`-F`), the only way OpenSSH accepts a `|` in it. */
  via?: 'argv' | 'config';
  /** Local working directory (where `put` reads and `get` writes). */
  cwd?: string;
  /** Local address to connect from (`BindAddress`), e.g. `127.0.0.2`: another client address on loopback. */
  bind?: string;
  /** Environment of the client (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The client is killed after this long (default 60 s), which rejects the run. */
  timeoutMs?: number;
}

/** sftp exits 0, 1 or 255; sshpass's own failures are 2–6 (and 1 with its usage text). */
const CLIENT_CODES = new Set([0, 1, 255]);
const USAGE = /^(usage: sftp|Usage: sshpass)/im;

export function runSftp(
  port: number,
  user: string,
  password: string,
  commands: string[],
  opts: SftpOptions = {},
): Promise<SftpResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sftp-client-'));
  const batch = join(dir, 'batch');
  writeFileSync(batch, `${commands.join('\n')}\n`);
  const common = [
    '-oBatchMode=no',
    '-oStrictHostKeyChecking=no',
    '-oUserKnownHostsFile=/dev/null',
    '-oPubkeyAuthentication=no',
    '-oPreferredAuthentications=password',
    '-oNumberOfPasswordPrompts=1',
    '-oLogLevel=ERROR',
    ...(opts.bind ? [`-oBindAddress=${opts.bind}`] : []),
    '-P',
    String(port),
    '-b',
    batch,
  ];
  let args: string[];
  if (opts.via === 'config') {
    const configFile = join(dir, 'ssh_config');
    writeFileSync(configFile, `Host hearth-test\n  HostName 127.0.0.1\n  User ${user}\n`);
    args = ['-F', configFile, ...common, 'hearth-test'];
  } else args = [...common, `${user}@127.0.0.1`];
  return new Promise<SftpResult>((resolve, reject) => {
    execFile(
      'sshpass',
      ['-p', password, 'sftp', ...args],
      { cwd: opts.cwd ?? dir, timeout: opts.timeoutMs ?? 60_000, env: opts.env ?? process.env },
      (err, stdout, stderr) => {
        const failed = (why: string) =>
          reject(new Error(`the sftp client itself failed (${why}), not the server: ${stderr}${stdout}`));
        if (err?.killed || err?.signal) return failed(`killed by ${err.signal ?? 'the timeout'}`);
        if (err && typeof err.code !== 'number') return failed(String(err.code ?? err.message));
        const code = err ? Number(err.code) : 0;
        if (!CLIENT_CODES.has(code)) return failed(`exit ${code}`);
        if (USAGE.test(stderr)) return failed('usage error');
        resolve({ code, stdout, stderr });
      },
    );
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The login was refused by the server's authentication (not a connection error) and no command ran. */
export function expectLoginRefused(r: SftpResult, label = 'login'): void {
  expect(r.stderr, label).toMatch(/: Permission denied \(password\)\.\r?$/m);
  expect(r.code, `${label}: ${r.stderr}`).toBe(255);
  expect(r.stdout, label).toBe(''); // sftp echoes `sftp> <command>` only once logged in
}

/** Logged in, ran every command, all succeeded. */
export function expectSftpOk(r: SftpResult, label = 'sftp'): void {
  expect(r.code, `${label}: ${r.stderr}`).toBe(0);
  expect(r.stderr, label).toBe('');
}

/**
 * Logged in and ran `command` (echoed by sftp), which the server refused with SSH_FX_PERMISSION_DENIED: the
 * client's last word is `…: Permission denied` for it, not "not found", a failure or a lost connection.
 */
export function expectCommandRefused(r: SftpResult, command: string): void {
  expect(r.stdout, command).toContain(`sftp> ${command}\n`);
  expect(lines(r.stderr).at(-1), command).toMatch(/: Permission denied$/);
  expect(r.stderr, command).not.toMatch(/\(password\)|Connection closed|Disconnected/);
  expect(r.code, `${command}: ${r.stderr}`).toBe(1);
}
