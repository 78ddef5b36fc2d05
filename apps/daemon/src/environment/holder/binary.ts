/**
 * The holder program (hearth-holder.c) is C so that a holder per running server costs 1.5–1.8 MiB resident
 * (0.2–0.5 MiB of it its own) instead of a Node process's ~40 MiB (docs/daemon.md § Supervision). It is built
 * with the system's C compiler (`$CC`, else `cc`: Debian's gcc, already needed for the native modules) the
 * first time a node needs it, named by the hash of its source so an upgraded daemon builds the new one while
 * holders of the old one keep running. A prebuilt copy of that name beside the source (packaging) is used as is.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { access, constants as fsConstants, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { shippedPath } from '@hearth/contract/shipped-files';

const run = promisify(execFile);
// Beside this file in the repository; in the build's share/holder/ (docs/adr/0006-production-build.md).
const SOURCE = shippedPath('holderSource');

async function executable(path: string): Promise<boolean> {
  return access(path, fsConstants.X_OK).then(
    () => true,
    () => false,
  );
}

/** `hearth-holder-<first 16 hex digits of the source's SHA-256>`. */
export async function holderBinaryName(): Promise<string> {
  const hash = createHash('sha256')
    .update(await readFile(SOURCE))
    .digest('hex');
  return `hearth-holder-${hash.slice(0, 16)}`;
}

/** Compiles the holder into `dir` (written under a temporary name, then renamed); its path. */
export async function buildHolder(dir: string): Promise<string> {
  const target = join(dir, await holderBinaryName());
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const cc = process.env.CC || 'cc';
  try {
    await run(cc, ['-std=c11', '-O2', '-Wall', '-o', temp, SOURCE]);
    await rename(temp, target);
  } catch (err) {
    const detail = (err as { stderr?: string }).stderr?.trim() || (err as Error).message;
    throw new Error(`cannot build the server holder with ${cc}: ${detail}`, { cause: err });
  } finally {
    await rm(temp, { force: true });
  }
  return target;
}

const building = new Map<string, Promise<string>>();

/** The holder binary for this daemon: prebuilt beside the source, else built once into `cacheDir`. */
export async function holderBinary(cacheDir: string): Promise<string> {
  const name = await holderBinaryName();
  const prebuilt = join(dirname(SOURCE), name);
  if (await executable(prebuilt)) return prebuilt;
  const cached = join(cacheDir, name);
  if (await executable(cached)) return cached;
  let pending = building.get(cached);
  if (!pending) {
    pending = buildHolder(cacheDir).finally(() => building.delete(cached));
    building.set(cached, pending);
  }
  return pending;
}
