/**
 * RAR (4.x and 5) through bsdtar (Debian `libarchive-tools`, free; p7zip's RAR codec is non-free). bsdtar
 * never writes to disk here: it reads the archive from an inherited descriptor and re-encodes it as a pax
 * tar stream on stdout (`-c -f - @-`), which goes through `extractTar` like any tar — entry names, links,
 * entry count and bytes are judged by our code and every byte lands through the sandbox. `-P` keeps names
 * as stored (`../x`, `/x`), so bad entries are skipped and reported instead of silently rewritten.
 */
import { spawn } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { AppError } from '@hearth/contract';
import type { Sandbox } from '../sandbox';
import { checkTarEntries } from './entry-count';
import type { Budget } from './limits';
import { extractTar } from './tar';

export const BSDTAR = '/usr/bin/bsdtar';
const TIME_LIMIT_MS = 30 * 60_000;

interface Converter {
  tar: Readable;
  stop: () => void;
  /** Null when bsdtar succeeded, else why it failed: its stderr when it said something. */
  exited: Promise<{ error: string | null; byCode: boolean }>;
}

/** bsdtar's first complaint without its prefix (`(null)` is what libarchive says for a cut-off RAR). */
function reasonOf(stderr: string): string | null {
  const first = (stderr.split('\n')[0] ?? '').replace(/^bsdtar: (Error reading archive -: )?/, '').trim();
  return first === '' || first === '(null)' ? null : first.slice(0, 300);
}

/** bsdtar reading the archive on its stdin (`handle`) and writing it as a tar stream. */
function rarAsTar(handle: FileHandle): Converter {
  const child = spawn(BSDTAR, ['-c', '-f', '-', '--format', 'pax', '-P', '@-'], {
    stdio: [handle.fd, 'pipe', 'pipe'],
    timeout: TIME_LIMIT_MS,
    // Names go into the pax headers as UTF-8 whatever the daemon's own locale is.
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
  });
  let stderr = '';
  (child.stderr as Readable).setEncoding('utf8').on('data', (s: string) => {
    if (stderr.length < 4096) stderr += s;
  });
  const exited = new Promise<{ error: string | null; byCode: boolean }>((resolve) => {
    child.on('error', (err) =>
      resolve({ error: `${BSDTAR} (libarchive-tools) cannot run: ${err.message}`, byCode: true }),
    );
    child.on('close', (code, signal) => {
      const error =
        code === 0 ? null : (reasonOf(stderr) ?? `damaged or truncated (bsdtar exit ${code ?? signal})`);
      resolve({ error, byCode: code !== null });
    });
  });
  const tar = child.stdout as Readable;
  // A refused stream is left paused with data unread; 'close' waits for stdout to end, so drop it with the child.
  const stop = () => {
    tar.destroy();
    child.kill();
  };
  return { tar, stop, exited };
}

/** Entry count and declared sizes within the limits, judged before anything is written (entry-count.ts). */
async function precheck(sandbox: Sandbox, archive: string, budget: Budget): Promise<void> {
  // Its own descriptor: bsdtar reads its stdin to the end, and the extraction's bsdtar must start at 0.
  const handle = await sandbox.open(archive);
  try {
    const bsdtar = rarAsTar(handle);
    const checked = checkTarEntries(bsdtar.tar, budget.limits);
    await checked.finally(() => bsdtar.stop());
    await bsdtar.exited;
  } finally {
    await handle.close();
  }
}

export async function extractRar(
  sandbox: Sandbox,
  archive: string,
  destination: string,
  budget: Budget,
): Promise<void> {
  await precheck(sandbox, archive, budget);
  const handle = await sandbox.open(archive);
  try {
    const bsdtar = rarAsTar(handle);
    const refused = await extractTar(sandbox, bsdtar.tar, destination, budget).then(
      () => null,
      (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
    );
    // Whatever extractTar left unread is drained, or bsdtar's 'close' (which waits for stdout) never comes.
    bsdtar.tar.resume();
    const broken = refused instanceof AppError && refused.code === 'ErrArchiveInvalid';
    // Our own refusal (limits, sandbox): bsdtar is stopped and its end says nothing about the archive. A
    // tar stream that broke off (its pipe is closed now, so bsdtar ends) is explained by bsdtar's error.
    if (refused !== null && !broken) bsdtar.stop();
    const grace = refused !== null ? setTimeout(bsdtar.stop, 5_000) : undefined; // when it does not end
    const exit = await bsdtar.exited;
    clearTimeout(grace);
    if (refused !== null && !(broken && exit.byCode && exit.error !== null)) throw refused;
    // Checked after a clean tar end too: bsdtar may close the tar stream and still report a bad archive.
    if (exit.error !== null) throw new AppError('ErrArchiveInvalid', { reason: exit.error });
  } finally {
    await handle.close();
  }
}
