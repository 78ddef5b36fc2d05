import { useEffect, useState } from 'react';
import type { ServerLive } from '../useServerLive';

/** Start about 1 s after the server reports not running. */
export const RESTART_START_DELAY_MS = 1000;

/**
 * Restart = stop, wait until the server reports not running, then start after a short delay. `restarting`
 * holds the control's loading state through all of it.
 */
export function useRestart({ status, send }: Pick<ServerLive, 'status' | 'send'>) {
  const [phase, setPhase] = useState<'idle' | 'stopping' | 'starting'>('idle');
  if (phase === 'stopping' && status === 'offline') setPhase('starting');
  useEffect(() => {
    if (phase !== 'starting') return;
    const timer = setTimeout(() => {
      const done = () => setPhase('idle');
      send({ type: 'start' }).then(done, done);
    }, RESTART_START_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, send]);
  const restart = () => {
    setPhase('stopping');
    send({ type: 'stop' }).then(
      // Ask at once rather than wait for the next poll or event.
      () => send({ type: 'status' }).catch(() => undefined),
      () => setPhase('idle'),
    );
  };
  return { restarting: phase !== 'idle', restart };
}
