/** Files and bytes under a folder (a restore's progress: what restic has written into its staging folder). */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function folderSize(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (path: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        files += 1;
        bytes += (await lstat(full).catch(() => null))?.size ?? 0;
      }
    }
  };
  await walk(dir);
  return { files, bytes };
}
