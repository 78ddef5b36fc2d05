/** Spawns receiver.mjs (a real HTTP receiver in its own process) and collects what it saw. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Received {
  path: string;
  valid: boolean;
  body: string;
  /** When the receiver had it (ms since the epoch). */
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  stop(): void;
}

export async function startReceiver(secret: string): Promise<Receiver> {
  const script = fileURLToPath(new URL('./receiver.mjs', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [script, secret], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const received: Received[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Received & { port?: number };
      if (message.port) resolve(message.port);
      else received.push(message);
    });
  });
  return { url: `http://127.0.0.1:${port}`, received, stop: () => void child.kill() };
}
