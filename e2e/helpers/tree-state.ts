/**
 * Everything under a folder as comparable text (path, type, mode, size, mtime, content digest), so a test can
 * prove that a refused operation created, changed or removed nothing.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export async function treeState(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const st = await lstat(path);
      const head = `${relPath} ${(st.mode & 0o7777).toString(8)} ${st.mtimeMs}`;
      if (st.isDirectory()) {
        out.push(`${head} dir`);
        await walk(path, relPath);
      } else if (st.isSymbolicLink()) out.push(`${head} link → ${await readlink(path)}`);
      else {
        const digest = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
        out.push(`${head} ${st.size} ${digest}`);
      }
    }
  };
  await walk(root, '');
  return out;
}
