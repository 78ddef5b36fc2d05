/**
 * The Debian package this panel hands to its nodes (docs/operations.md § Remote node): a `hearth_<version>_<arch>.deb`
 * that the operator copied into `<dataDir>/packages/` — `npm run package:deb` output, or the very file the panel
 * was installed from. A package cannot carry a copy of itself, so the folder is the one place the panel looks;
 * the newest file (by modification time) of the asked architecture wins, so dropping in the next version is the
 * whole upgrade of what nodes get.
 */
import { stat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '@hearth/contract';

/** Debian's names for Node's architectures (`dpkg --print-architecture`). */
const DEBIAN_ARCH: Record<string, string> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'armhf',
  ia32: 'i386',
  ppc64: 'ppc64el',
  s390x: 's390x',
  riscv64: 'riscv64',
};

export const hostDebianArch = (): string => DEBIAN_ARCH[process.arch] ?? process.arch;

export const packagesDirOf = (dataDir: string): string => join(dataDir, 'packages');

export interface NodePackage {
  path: string;
  name: string;
  size: number;
}

/** The package for `arch` in `dir`, else 404 ErrNodePackageMissing naming the folder and the file it wants. */
export async function findNodePackage(dir: string, arch: string): Promise<NodePackage> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let best: (NodePackage & { mtime: number }) | undefined;
  for (const name of names) {
    const match = /^hearth_[0-9][A-Za-z0-9.+~-]*_([a-z0-9-]+)\.deb$/.exec(name);
    if (match?.[1] !== arch) continue;
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (!best || info.mtimeMs > best.mtime)
      best = { path: join(dir, name), name, size: info.size, mtime: info.mtimeMs };
  }
  if (!best) throw new AppError('ErrNodePackageMissing', { arch, dir });
  return { path: best.path, name: best.name, size: best.size };
}
