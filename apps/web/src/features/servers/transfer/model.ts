/**
 * What the move dialog shows, as pure functions of the panel's answers and the socket's events (useTransfer.ts
 * holds the state; apps/web/test/servers-transfer-model.test.ts checks these).
 */
import type {
  TransferDoneData,
  TransferError,
  TransferPhase,
  TransferProgressData,
  TransferState,
} from '@hearth/contract/transfer';

export interface TransferView {
  phase: TransferPhase;
  bytes: number;
  total: number;
  from: string;
  to: string;
  error: TransferError | null;
  /** The source folder that could not be deleted (the move itself succeeded). */
  leftover: string | null;
}

/** The phases after which nothing changes any more. */
export const finished = (phase: TransferPhase) => phase === 'done' || phase === 'failed';

export const POLL_CLOSED_MS = 2_000;
export const POLL_OPEN_MS = 10_000;

/**
 * How often `GET …/transfer` is asked: not at all unless a move is being watched; every 2 s while the socket is
 * not open; every 10 s while it is, since an event sent during a reconnect is never replayed.
 */
export function pollInterval(view: TransferView | null, connection: string): number | false {
  if (view === null || finished(view.phase)) return false;
  return connection === 'open' ? POLL_OPEN_MS : POLL_CLOSED_MS;
}

export const viewOf = (state: TransferState): TransferView => ({
  phase: state.phase,
  bytes: state.bytes,
  total: state.total,
  from: state.from,
  to: state.to,
  error: state.error,
  leftover: state.leftover ?? null,
});

/**
 * A polled state applied to what is shown. On the page's first answer only a running move is picked up (an old
 * finished one is history, not news); later answers update a move being shown and are ignored otherwise.
 */
export function applyPolled(
  current: TransferView | null,
  state: TransferState,
  first: boolean,
): TransferView | null {
  if (first) return finished(state.phase) ? current : viewOf(state);
  return current === null ? null : viewOf(state);
}

/** A `transfer-progress` event: a move started elsewhere (another administrator) is shown from its first event. */
export function applyProgress(
  current: TransferView | null,
  data: TransferProgressData,
  nodeId: string,
): TransferView {
  const base = current ?? { from: nodeId, to: '', error: null, leftover: null };
  return { ...base, ...data };
}

/** A `transfer-done` event: `node` is where the server is now (the target, or the source after a failure). */
export function applyDone(current: TransferView | null, done: TransferDoneData): TransferView | null {
  if (current === null) return null;
  if (done.ok) return { ...current, phase: 'done', to: done.node, bytes: current.total, error: null };
  return { ...current, phase: 'failed', from: done.node, error: done.error ?? { code: 'ErrTransferFailed' } };
}

/** A refused `POST …/transfer`: the error as the panel gave it (null when it carried no code). */
export function refused(from: string, to: string, error: TransferError | null): TransferView {
  return { phase: 'failed', bytes: 0, total: 0, from, to, error, leftover: null };
}
