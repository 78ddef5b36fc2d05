/**
 * How the daemon's parts record events for the panel's activity log (docs/activity.md § Node events): through
 * the outbox bound to their servers' settings. The binding is kept beside the settings rather than in them, so
 * a server's lifecycle, the task scheduler and the backup service record without carrying the outbox in every
 * signature; a daemon without an outbox (some tests build servers alone) records nothing.
 */
import type { NodeEventAction } from '@hearth/contract';
import type { Server, ServerSettings } from '../server/server';
import type { NodeEventInput, Outbox } from './outbox';

const outboxes = new WeakMap<ServerSettings, Outbox>();

export function bindNodeEvents(settings: ServerSettings, outbox: Outbox): void {
  outboxes.set(settings, outbox);
}

export type NodeEventRecord = Omit<NodeEventInput, 'action'> & { action: NodeEventAction };

/** Records an event of one of the settings' servers; a daemon without an outbox drops it. */
export function recordNodeEvent(settings: ServerSettings, event: NodeEventRecord): void {
  outboxes.get(settings)?.append(event);
}

export const nodeActor = { type: 'system', id: null, label: 'node' } as const;

/** The lines a crash record keeps (issue 18: the last 50), each cut to this many characters. */
export const CRASH_LINES = 50;
const LINE_MAX_CHARS = 400;

/** The last `count` lines of the server's console buffer, oldest first (ANSI colour codes removed). */
export function consoleTail(server: Server, count = CRASH_LINES): string[] {
  const chunks = server.console.since(0);
  const lines: string[] = [];
  let partial = '';
  for (let i = chunks.length - 1; i >= 0 && lines.length <= count; i--) {
    const parts = `${chunks[i]?.text ?? ''}${partial}`.split('\n');
    partial = parts.shift() ?? '';
    for (let j = parts.length - 1; j >= 0 && lines.length <= count; j--) lines.unshift(parts[j] ?? '');
  }
  if (lines.length <= count && partial) lines.unshift(partial);
  // A trailing newline leaves an empty last piece: it is no line.
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-count).map(clean);
}

// eslint-disable-next-line no-control-regex -- console output's colour codes are exactly control characters
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

function clean(line: string): string {
  const text = line.replace(ANSI, '').replace(/\r$/, '');
  return text.length > LINE_MAX_CHARS ? `${text.slice(0, LINE_MAX_CHARS)}…` : text;
}
