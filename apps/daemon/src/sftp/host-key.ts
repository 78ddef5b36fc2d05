/** The SFTP host key: generated once (ed25519, OpenSSH format) and kept in the daemon data dir. */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ssh2 from 'ssh2';

/**
 * ssh2's ed25519 key generation strips leading zero bytes from the public key, so about 1 key in 256 cannot be
 * parsed back (mscdex/ssh2#1390, #1513): keep generating until the key (and its public half) parse.
 */
function generateUsableKey(): string {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'hearth-daemon' });
    const parsed = ssh2.utils.parseKey(pair.private);
    if (!(parsed instanceof Error) && !(ssh2.utils.parseKey(pair.public) instanceof Error))
      return pair.private;
  }
}

export async function loadHostKey(dataDir: string): Promise<string> {
  const path = join(dataDir, 'sftp_host_ed25519_key');
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const key = generateUsableKey();
  // Written whole under a private name, then hard-linked into place: a daemon racing on the same data dir
  // never reads a half-written key (a plain `wx` write is visible while still empty), and the first key wins.
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, key, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temp);
  }
  return readFile(path, 'utf8');
}
