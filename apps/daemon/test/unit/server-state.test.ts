/**
 * The Server's state table (src/server/state.ts, docs/daemon.md § Server states): every transition outside it
 * is refused, every one in it is allowed, every state can be reached from `stopped`, and every allowed
 * transition is made by one of the StateMachine's methods (the ones power.ts, lifecycle.ts and Server call).
 */
import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  assertTransition,
  canTransition,
  serverStates,
  type ServerState,
} from '../../src/server/state';
import { StateMachine } from '../../src/server/state-machine';

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

/** The machine's own methods that bring a fresh machine into each state. */
const into: Record<ServerState, (m: StateMachine) => void> = {
  stopped: () => undefined,
  starting: (m) => m.beginStarting(),
  running: (m) => {
    m.beginStarting();
    m.markStarted();
  },
  stopping: (m) => {
    into.running(m);
    m.requestExit();
  },
  installing: (m) => m.beginInstalling(),
  'restart-pending': (m) => m.scheduleRestart(3_600_000, () => undefined),
};

/** Which method makes each allowed transition. */
const makes: Record<string, (m: StateMachine) => unknown> = {
  'stopped→starting': (m) => m.beginStarting(),
  'stopped→installing': (m) => m.beginInstalling(),
  'stopped→running': (m) => m.adopted(1),
  'stopped→restart-pending': (m) => m.scheduleRestart(3_600_000, () => undefined),
  'starting→running': (m) => m.markStarted(),
  'starting→stopping': (m) => m.requestExit(),
  'starting→stopped': (m) => m.startFailed(),
  'running→stopping': (m) => m.requestExit(),
  'running→installing': (m) => m.beginInstalling(),
  'running→stopped': (m) => m.exited(),
  'stopping→stopped': (m) => m.exited(),
  'stopping→installing': (m) => m.beginInstalling(),
  'stopping→starting': (m) => m.beginStarting(),
  'installing→stopped': (m) => m.endInstalling(),
  'restart-pending→starting': (m) => m.beginStarting(),
  'restart-pending→installing': (m) => m.beginInstalling(),
  'restart-pending→stopped': (m) => m.cancelRestart(),
};

describe('the state machine', () => {
  const legal = pairs.filter(([from, to]) => documented[from].includes(to));

  it.each(legal)('makes %s → %s through its methods', (from, to) => {
    const machine = new StateMachine(() => undefined);
    into[from](machine);
    expect(machine.state).toBe(from);
    const make = makes[`${from}→${to}`];
    expect(make, `a method for ${from} → ${to}`).toBeDefined();
    make?.(machine);
    expect(machine.state).toBe(to);
    machine.cancelRestart(); // no timer outlives the test
  });

  it('refuses an illegal transition asked for by a method, and leaves the state as it was', () => {
    const stopped = new StateMachine(() => undefined);
    expect(() => stopped.endInstalling()).toThrow('Illegal server state transition: stopped → stopped');
    expect(stopped.state).toBe('stopped');
    const running = new StateMachine(() => undefined);
    into.running(running);
    expect(() => running.beginStarting()).toThrow('Illegal server state transition: running → starting');
    const installing = new StateMachine(() => undefined);
    into.installing(installing);
    expect(() => installing.beginStarting()).toThrow('installing → starting');
    expect(installing.state).toBe('installing');
  });

  it('an exit while stopping or installing was asked for; while running it was not', () => {
    const stopping = new StateMachine(() => undefined);
    into.stopping(stopping);
    expect(stopping.exited()).toBe(true);
    const installing = new StateMachine(() => undefined);
    into.installing(installing);
    expect(installing.exited()).toBe(true);
    expect(installing.state).toBe('installing');
    const running = new StateMachine(() => undefined);
    into.running(running);
    expect(running.exited()).toBe(false);
    expect(running.state).toBe('stopped');
  });

  it('sends a status where the wire status changes: into running or installing, and out of installing', () => {
    let sent = 0;
    const machine = new StateMachine(() => (sent += 1));
    machine.beginStarting();
    expect(sent).toBe(0);
    machine.markStarted();
    expect(sent).toBe(1);
    machine.beginInstalling();
    machine.endInstalling();
    expect(sent).toBe(3);
  });
});
