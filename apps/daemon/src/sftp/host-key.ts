/** The SFTP host key: generated once (ed25519, OpenSSH format) and kept in the daemon data dir. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ssh2 from 'ssh2';

export async function loadHostKey(dataDir: string): Promise<string> {
  const path = join(dataDir, 'sftp_host_ed25519_key');
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const { private: key } = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'hearth-daemon' });
  // `wx`: two daemons racing on one data dir keep the first key, never a mix.
  await writeFile(path, key, { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return readFile(path, 'utf8');
}
