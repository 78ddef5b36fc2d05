/** `standard` environment processes: child_process with pipes, in their own process group. */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { yieldWhileReading } from './read-yield';
import { killGroup, type Spawner } from './spawner';

export const spawnStandard: Spawner = (spec, callbacks) => {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // own process group: kill(-pid) reaches the whole tree
  });
  // One decoder per stream: a code point split across chunks is held back, never mangled.
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text) callbacks.output(text);
    });
    yieldWhileReading(stream);
    stream.on('end', () => {
      const rest = decoder.end();
      if (rest) callbacks.output(rest);
    });
  }
  child.stdin.on('error', () => undefined); // EPIPE after exit is expected; the exit is reported separately
  // 'exit' fires while grandchildren may still hold the pipes; kill the group so 'close' follows.
  child.on('exit', () => {
    if (child.pid !== undefined) killGroup(child.pid);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => {
      child.on('close', (code, signal) => callbacks.exit(code, signal));
      resolve({
        pid: child.pid ?? 0,
        newline: '\n',
        write: (text) => void child.stdin.write(text),
        signal: (sig) => void child.kill(sig),
      });
    });
  });
};
