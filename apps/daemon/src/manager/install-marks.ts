/**
 * Whether a server was ever installed successfully: `<serversDir>/<id>.install.json`, beside its definition,
 * written atomically (temp file + rename). The web offers Install instead of Start until then (docs/daemon.md
 * § Installed mark); the daemon itself still starts a server that was never installed, as SPEC says.
 * A server with no mark file was created before marks existed: it counts as installed, so an upgrade does
 * not ask anyone to reinstall a server that already runs.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class InstallMarks {
  constructor(private readonly dir: string) {}

  private fileOf(id: string): string {
    return join(this.dir, `${id}.install.json`);
  }

  /** The stored mark; `true` when there is no file (a server older than marks) or it cannot be read. */
  async read(id: string): Promise<boolean> {
    try {
      const raw = JSON.parse(await readFile(this.fileOf(id), 'utf8')) as { installed?: unknown } | null;
      return raw?.installed !== false;
    } catch {
      return true;
    }
  }

  async write(id: string, installed: boolean): Promise<void> {
    const file = this.fileOf(id);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, JSON.stringify({ installed }), { flag: 'wx', mode: 0o600 });
      await rename(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
  }
}
