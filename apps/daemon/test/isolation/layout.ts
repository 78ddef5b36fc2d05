/**
 * A data dir laid out as `hearth start` leaves it (the panel's keys/, hearth.db and config.json beside the local
 * node's servers/), with the modes the panel and SQLite give them before the daemon starts, plus a daemon config
 * and SFTP host key, so a test can prove a server reads none of them (docs/security.md "Isolation model").
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HearthLayout {
  dataDir: string;
  serversDir: string;
  /** Files a server must not read. */
  secrets: string[];
}

export async function hearthStartLayout(prefix = 'hearth-isolation-'): Promise<HearthLayout> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(dataDir, 'keys'), { mode: 0o700 });
  const secrets = {
    'keys/panel-es256.key': { text: '-----BEGIN PRIVATE KEY-----\nsecret\n', mode: 0o600 },
    'hearth.db': { text: 'SQLite format 3\0 totp secrets', mode: 0o644 },
    'config.json': { text: '{"email":{"password":"smtp-secret"}}', mode: 0o644 },
    'node.json': { text: '{"sftp":{"clientSecret":"node-secret"}}', mode: 0o644 },
    sftp_host_ed25519_key: { text: 'host key', mode: 0o600 },
  };
  for (const [name, { text, mode }] of Object.entries(secrets)) {
    await writeFile(join(dataDir, name), text, { mode });
  }
  return {
    dataDir,
    serversDir: join(dataDir, 'servers'),
    secrets: Object.keys(secrets).map((name) => join(dataDir, name)),
  };
}
