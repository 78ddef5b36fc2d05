/**
 * What the process (standard/tty) and docker environments share: at most one run at a time (the main
 * process or a one-off), the main run's last exit, and the previous CPU sample of the stats window.
 */
import { AppError } from '@hearth/contract';
import type { ExitState } from './environment';

export abstract class OneRunEnvironment<Run extends { main: boolean }, Sample> {
  protected current: Run | null = null;
  protected exitState: ExitState | null = null;
  protected lastSample: Sample | null = null;
  protected destroyed = false;

  /** Before a new run: refused once destroyed (ErrServerNotFound) and while one runs (ErrServerRunning). */
  protected assertCanRun(): void {
    if (this.destroyed) throw new AppError('ErrServerNotFound');
    if (this.current) throw new AppError('ErrServerRunning');
  }

  /** The main run, where console commands go; ErrServerOffline without one. */
  protected mainRun(): Run {
    const current = this.current;
    if (!current?.main) throw new AppError('ErrServerOffline');
    return current;
  }

  isRunning(): boolean {
    return this.current?.main === true;
  }

  lastExit(): ExitState | null {
    return this.exitState;
  }
}
