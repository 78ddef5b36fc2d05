/**
 * The move dialog's state (apps/web/src/features/servers/transfer/model.ts): what a polled answer, a socket event
 * or a refused start makes it show, and when the panel is asked again.
 */
import { describe, expect, it } from 'vitest';
import type { TransferState } from '@hearth/contract/transfer';
import {
  applyDone,
  applyPolled,
  applyProgress,
  pollInterval,
  POLL_CLOSED_MS,
  POLL_OPEN_MS,
  refused,
  viewOf,
} from '../src/features/servers/transfer/model';

const state = (patch: Partial<TransferState> = {}): TransferState => ({
  id: 't1',
  server: 's1',
  from: 'node-a',
  to: 'node-b',
  phase: 'copying',
  bytes: 10,
  total: 100,
  files: 3,
  startedAt: '2026-11-29T05:00:00.000Z',
  finishedAt: null,
  error: null,
  wasRunning: true,
  leftover: null,
  ...patch,
});

describe('transfer model', () => {
  it('picks up a running move on the first answer, never an old finished one', () => {
    expect(applyPolled(null, state(), true)).toMatchObject({
      phase: 'copying',
      from: 'node-a',
      to: 'node-b',
    });
    expect(applyPolled(null, state({ phase: 'done' }), true)).toBeNull();
    expect(applyPolled(null, state({ phase: 'failed', error: { code: 'ErrNodeOffline' } }), true)).toBeNull();
  });

  it('later answers update a move being shown and are ignored when none is', () => {
    const shown = viewOf(state({ phase: 'stopping', bytes: 0 }));
    expect(applyPolled(shown, state({ phase: 'verifying', bytes: 100 }), false)).toMatchObject({
      phase: 'verifying',
      bytes: 100,
    });
    expect(applyPolled(null, state(), false)).toBeNull();
  });

  it('a progress event updates phase and bytes; a move started elsewhere shows from its first event', () => {
    const shown = viewOf(state());
    expect(applyProgress(shown, { phase: 'copying', bytes: 60, total: 100 }, 'node-a')).toMatchObject({
      phase: 'copying',
      bytes: 60,
      to: 'node-b',
    });
    expect(applyProgress(null, { phase: 'stopping', bytes: 0, total: 0 }, 'node-a')).toEqual({
      phase: 'stopping',
      bytes: 0,
      total: 0,
      from: 'node-a',
      to: '',
      error: null,
      leftover: null,
    });
  });

  it('done names the node the server is on: the target on success, the source after a failure', () => {
    const shown = viewOf(state());
    expect(applyDone(shown, { ok: true, node: 'node-b' })).toMatchObject({
      phase: 'done',
      to: 'node-b',
      bytes: 100,
      error: null,
    });
    const noSpace = { code: 'ErrTransferNoSpace', metadata: { node: 'node-b', needed: 5 } };
    expect(applyDone(shown, { ok: false, node: 'node-a', error: noSpace })).toMatchObject({
      phase: 'failed',
      from: 'node-a',
      error: noSpace,
    });
    // A failure without a catalogued reason still reads as a failed move, not an unknown state.
    expect(applyDone(shown, { ok: false, node: 'node-a' })?.error).toEqual({ code: 'ErrTransferFailed' });
    expect(applyDone(null, { ok: true, node: 'node-b' })).toBeNull();
  });

  it('a refused start is a failed move that stayed where it was', () => {
    expect(refused('node-a', 'node-b', { code: 'ErrNodeOffline', metadata: { node: 'node-b' } })).toEqual({
      phase: 'failed',
      bytes: 0,
      total: 0,
      from: 'node-a',
      to: 'node-b',
      error: { code: 'ErrNodeOffline', metadata: { node: 'node-b' } },
      leftover: null,
    });
  });

  it('asks the panel every 2 s while the socket is not open, every 10 s while it is, never when idle', () => {
    const running = viewOf(state());
    expect(pollInterval(running, 'closed')).toBe(POLL_CLOSED_MS);
    expect(pollInterval(running, 'connecting')).toBe(POLL_CLOSED_MS);
    expect(pollInterval(running, 'open')).toBe(POLL_OPEN_MS);
    expect(POLL_CLOSED_MS).toBe(2_000);
    expect(pollInterval(null, 'closed')).toBe(false);
    expect(pollInterval(viewOf(state({ phase: 'done' })), 'closed')).toBe(false);
    expect(pollInterval(viewOf(state({ phase: 'failed' })), 'closed')).toBe(false);
  });
});
