/**
 * The start time behind the console's "exited … after N s" (lifecycle.ts): a process may die before its start
 * is marked (state `starting`), and a later run must not inherit the previous run's time
 * (docs/daemon.md § Server states).
 */
import { describe, expect, it } from 'vitest';
import { StateMachine } from '../../src/server/state-machine';

/** An hour: far more than these runs last, far less than the time since the epoch. */
const SANE_MS = 3_600_000;

describe('start time', () => {
  it('is set for a first start whose process exits before it is marked started', () => {
    const m = new StateMachine(() => undefined);
    m.beginStarting();
    m.spawning();
    m.exited();
    expect(Date.now() - m.startedAt).toBeLessThan(SANE_MS);
    expect(m.startedAt).toBeGreaterThan(0);
  });

  it('is set from the start request even before the spawn (pre hooks failing or an early exit)', () => {
    const m = new StateMachine(() => undefined);
    m.beginStarting();
    m.exited();
    expect(Date.now() - m.startedAt).toBeLessThan(SANE_MS);
  });

  it('is this run’s, not the previous run’s', () => {
    const m = new StateMachine(() => undefined);
    m.adopted(1000); // a run that began long ago
    m.exited();
    m.beginStarting();
    m.exited();
    expect(Date.now() - m.startedAt).toBeLessThan(SANE_MS);
  });
});
