/**
 * How restic reaches the node's repository: its location, options and environment for one destination
 * (destination.ts). The child gets a fresh environment — nothing of the daemon's own leaks into restic, and
 * restic's own variables cannot be planted through the daemon's — with the password and location as files.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Destination } from './destination';
import { writePrivate } from './atomic-file';
import type { ResticTarget } from './restic';

export interface TargetPaths {
  backupsDir: string;
  passwordFile: string;
  resticPath: string;
}

function repositoryOf(destination: Destination, backupsDir: string): string {
  switch (destination.type) {
    case 'local':
      return destination.path || join(backupsDir, 'repository');
    case 'sftp':
      return `sftp:${destination.user}@${destination.host}:${destination.path}`;
    case 's3': {
      const base = destination.endpoint.replace(/\/+$/, '');
      const prefix = destination.prefix.replace(/^\/+|\/+$/g, '');
      return `s3:${base}/${destination.bucket}${prefix ? `/${prefix}` : ''}`;
    }
    case 'rest': {
      const url = new URL(destination.url);
      if (destination.username) url.username = destination.username;
      if (destination.password) url.password = destination.password;
      return `rest:${url.toString()}`;
    }
  }
}

/** OpenSSH for SFTP: key login only, the admin's pinned host key only, no prompts (BatchMode). */
async function sftpCommand(
  destination: Extract<Destination, { type: 'sftp' }>,
  sshDir: string,
): Promise<string> {
  const keyFile = join(sshDir, 'id');
  const knownHosts = join(sshDir, 'known_hosts');
  await writePrivate(keyFile, `${(destination.privateKey ?? '').trim()}\n`);
  const host = destination.port === 22 ? destination.host : `[${destination.host}]:${destination.port}`;
  await writePrivate(knownHosts, `${host} ${destination.hostKey.trim()}\n`);
  return [
    'ssh',
    `-p ${destination.port}`,
    `-i ${keyFile}`,
    '-o IdentitiesOnly=yes',
    '-o BatchMode=yes',
    '-o StrictHostKeyChecking=yes',
    `-o UserKnownHostsFile=${knownHosts}`,
    '-o GlobalKnownHostsFile=/dev/null',
    '-o ConnectTimeout=10',
    '-o ServerAliveInterval=15',
    `${destination.user}@${destination.host}`,
    '-s sftp',
  ].join(' ');
}

/**
 * Writes the location file (and SFTP key files, CA) and returns how to run restic against the destination. Each
 * destination gets its own folder of these files (named by a hash of its settings), so trying a new destination
 * that turns out unreachable never touches the files the current one runs with.
 */
export async function buildTarget(destination: Destination, paths: TargetPaths): Promise<ResticTarget> {
  const name = createHash('sha256').update(JSON.stringify(destination)).digest('hex').slice(0, 16);
  const dir = join(paths.backupsDir, 'targets', name);
  const repositoryFile = join(dir, 'repository.location');
  await writePrivate(repositoryFile, `${repositoryOf(destination, paths.backupsDir)}\n`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: paths.backupsDir,
    LANG: 'C.UTF-8',
    TMPDIR: join(paths.backupsDir, 'tmp'),
    RESTIC_PASSWORD_FILE: paths.passwordFile,
    RESTIC_REPOSITORY_FILE: repositoryFile,
    RESTIC_CACHE_DIR: join(paths.backupsDir, 'cache'),
  };
  const globalArgs: string[] = [];
  if (destination.type === 's3') {
    env.AWS_ACCESS_KEY_ID = destination.accessKeyId;
    env.AWS_SECRET_ACCESS_KEY = destination.secretAccessKey ?? '';
    if (destination.region) env.AWS_DEFAULT_REGION = destination.region;
  }
  if ((destination.type === 's3' || destination.type === 'rest') && destination.caCert) {
    const caFile = join(dir, 'ca.pem');
    await writePrivate(caFile, `${destination.caCert.trim()}\n`);
    globalArgs.push('--cacert', caFile);
  }
  if (destination.type === 'sftp') {
    globalArgs.push('-o', `sftp.command=${await sftpCommand(destination, join(dir, 'ssh'))}`);
  }
  return { bin: paths.resticPath, globalArgs, env };
}
