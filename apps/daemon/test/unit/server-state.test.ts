/**
 * The Server's state table (src/server/state.ts, docs/daemon.md § Server states): every transition outside it
 * is refused, every one in it is allowed, and every state can be reached from `stopped`.
 */
import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  assertTransition,
  canTransition,
  serverStates,
  type ServerState,
} from '../../src/server/state';

const pairs = serverStates.flatMap((from) => serverStates.map((to) => [from, to] as const));

/** The table as docs/daemon.md shows it; a change to either must change both. */
const documented: Record<ServerState, ServerState[]> = {
  stopped: ['starting', 'installing', 'running', 'restart-pending'],
  starting: ['running', 'stopping', 'stopped'],
  running: ['stopping', 'installing', 'stopped'],
  stopping: ['stopped', 'installing', 'starting'],
  installing: ['stopped'],
  'restart-pending': ['starting', 'installing', 'stopped'],
};

describe('server state transitions', () => {
  it('matches the documented table', () => {
    for (const state of serverStates)
      expect([...allowedTransitions[state]].sort(), state).toEqual([...documented[state]].sort());
  });

  it.each(pairs.filter(([from, to]) => !documented[from].includes(to)))('refuses %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(`Illegal server state transition: ${from} → ${to}`);
  });

  it.each(pairs.filter(([from, to]) => documented[from].includes(to)))('allows %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it('reaches every state from stopped, and every state can get back to stopped', () => {
    const reach = (start: ServerState, next: (s: ServerState) => readonly ServerState[]) => {
      const seen = new Set<ServerState>([start]);
      for (const queue = [start]; queue.length > 0;) {
        for (const to of next(queue.shift() as ServerState))
          if (!seen.has(to)) {
            seen.add(to);
            queue.push(to);
          }
      }
      return seen;
    };
    expect(reach('stopped', (s) => allowedTransitions[s])).toEqual(new Set(serverStates));
    const back = (s: ServerState) => serverStates.filter((from) => allowedTransitions[from].includes(s));
    expect(reach('stopped', back)).toEqual(new Set(serverStates));
    for (const state of serverStates) expect(canTransition(state, state), state).toBe(false);
  });
});
