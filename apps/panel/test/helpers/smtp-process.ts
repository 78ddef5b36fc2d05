/**
 * A real SMTP server in its own process (smtp-capture-child.ts), so that what a mail test receives crossed a
 * process boundary like any mail server's would. Each message is handed to `receive` before the server accepts
 * it (the child waits for this process's acknowledgement), so a sender that saw its mail accepted can look at
 * what was received at once.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpProcess {
  port: number;
  /** The capture server's process id (never this process's). */
  pid: number;
  /** Ends the capture process and waits for it to exit. */
  close: () => Promise<void>;
}

const CHILD = join(import.meta.dirname, 'smtp-capture-child.ts');
const REPO = join(import.meta.dirname, '..', '..', '..', '..');

export async function listenSmtp(receive: (mail: ReceivedMail) => void): Promise<SmtpProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    void exited.then(([code, signal]) =>
      reject(
        new Error(`the SMTP capture process ended (${String(code ?? signal)}) before listening: ${stderr}`),
      ),
    );
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { port?: number; id?: number } & Partial<ReceivedMail>;
      if (message.port !== undefined) return resolve(message.port);
      receive({ from: message.from ?? '', to: message.to ?? [], raw: message.raw ?? '' });
      child.stdin.write(`${String(message.id)}\n`); // now the child may answer 250
    });
  });
  return {
    port,
    pid: child.pid ?? 0,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
        return;
      }
      // It ended before being asked to: whatever it said explains the mails a test missed.
      throw new Error(
        `the SMTP capture process had ended (${child.exitCode ?? child.signalCode}): ${stderr}`,
      );
    },
  };
}
