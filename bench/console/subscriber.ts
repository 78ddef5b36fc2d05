/**
 * A websocket console subscriber running in its own process (subscriber-proc.mjs): 20 subscribers in the
 * benchmark's own process would compete with it for the CPU and show up as daemon latency.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expectExit, fork } from '../children';

interface Report {
  reached: string;
  lines: number;
  dropped: number;
  latencies: number[];
}

export class Subscriber {
  lines = 0;
  dropped = 0;
  latencies: number[] = [];

  private constructor(private readonly child: ChildProcess) {}

  static async open(url: string, token: string): Promise<Subscriber> {
    const child = fork(join(import.meta.dirname, 'subscriber-proc.mjs'), [url, token], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`subscriber exited with ${code}`)));
    });
    return new Subscriber(child);
  }

  /**
   * Arms the subscriber for a line containing `text`; resolves once the child has it (so output that follows
   * cannot overtake it) with the promise of that line's arrival. Counts and latencies are since the last arm.
   */
  async arm(text: string): Promise<{ reached: Promise<void> }> {
    const reached = new Promise<void>((resolve) => {
      const onMessage = (report: Report) => {
        if (report.reached !== text) return;
        this.child.off('message', onMessage);
        this.lines = report.lines;
        this.dropped = report.dropped;
        this.latencies = report.latencies;
        resolve();
      };
      this.child.on('message', onMessage);
    });
    await new Promise<void>((resolve) => {
      const onArmed = (message: { armed?: string }) => {
        if (message.armed !== text) return;
        this.child.off('message', onArmed);
        resolve();
      };
      this.child.on('message', onArmed);
      this.child.send({ until: text });
    });
    return { reached };
  }

  close(): Promise<void> {
    expectExit(this.child);
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ close: true });
    });
  }
}
