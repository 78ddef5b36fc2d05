/**
 * A server's run directory, `<dataDir>/run/<serverId>/` (0700, the daemon's user only), where its holder
 * keeps what a later daemon needs (docs/daemon.md § Supervision): `state` (written before the process may
 * run), `sock` (the holder's socket), and once the process ended `output` (its last output) and `exit`.
 */
import { constants as osConstants } from 'node:os';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExitState } from '../environment';
import type { ProcRef } from './proc';

/** The holder's file format; a daemon adopts only holders whose version it knows. */
export const HOLDER_PROTOCOL = 1;

export type RunRole = 'main' | 'once';
export type HolderMode = 'pipe' | 'tty';

export interface HolderState {
  role: RunRole;
  mode: HolderMode;
  boot: string;
  holder: ProcRef;
  game: ProcRef;
  /** Wall-clock ms when the process was started. */
  startedAt: number;
}

export interface HolderExit {
  state: ExitState;
  endedAt: number;
}

const signalNames = new Map(Object.entries(osConstants.signals).map(([name, num]) => [num, name]));

/** `key value…` lines → map (first word is the key). */
function fieldsOf(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [key, ...values] = line.split(' ');
    if (key) fields.set(key, values);
  }
  return fields;
}

const int = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value) ? Number(value) : null;

function procRef(values: string[] | undefined): ProcRef | null {
  const pid = int(values?.[0]);
  const start = int(values?.[1]);
  return pid !== null && pid > 0 && start !== null ? { pid, start } : null;
}

async function readText(dir: string, name: string): Promise<string | null> {
  try {
    return await readFile(join(dir, name), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The holder's record: null when there is none, 'invalid' when it cannot be understood. */
export async function readState(dir: string): Promise<HolderState | 'invalid' | null> {
  const text = await readText(dir, 'state');
  if (text === null) return null;
  const f = fieldsOf(text);
  const role = f.get('role')?.[0];
  const mode = f.get('mode')?.[0];
  const holder = procRef(f.get('holder'));
  const game = procRef(f.get('game'));
  const startedAt = int(f.get('started')?.[0]);
  const boot = f.get('boot')?.[0];
  if (int(f.get('hearth-holder')?.[0]) !== HOLDER_PROTOCOL) return 'invalid';
  if ((role !== 'main' && role !== 'once') || (mode !== 'pipe' && mode !== 'tty')) return 'invalid';
  if (!holder || !game || startedAt === null || !boot) return 'invalid';
  return { role, mode, boot, holder, game, startedAt };
}

/** How the process ended, once the holder wrote it; null before. */
export async function readExit(dir: string): Promise<HolderExit | null> {
  const text = await readText(dir, 'exit');
  if (text === null) return null;
  const f = fieldsOf(text);
  const code = int(f.get('code')?.[0]);
  const signal = int(f.get('signal')?.[0]);
  const endedAt = int(f.get('ended')?.[0]) ?? Date.now();
  if (code !== null) return { state: { code, signal: null }, endedAt };
  if (signal !== null)
    return { state: { code: null, signal: signalNames.get(signal) ?? `SIG${signal}` }, endedAt };
  return null;
}

/** The last output the holder kept when the process ended (empty when none). */
export async function readOutput(dir: string): Promise<Buffer> {
  return readFile(join(dir, 'output')).catch(() => Buffer.alloc(0));
}

/** Creates `<run>/` and `<run>/<id>/` for the daemon's user only (also tightening ones made earlier). */
export async function prepareRunDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dirname(dir), 0o700);
  await chmod(dir, 0o700);
}

export async function removeRunDir(dir: string): Promise<void> {
  // Retries: a holder still finishing may add a file between the listing and the rmdir (ENOTEMPTY).
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}
