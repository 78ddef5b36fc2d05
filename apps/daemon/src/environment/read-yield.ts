/**
 * Keeps a flooding process's pipe from monopolising the event loop. libuv reads a readable pipe up to 32
 * times (64 KiB each) in one go and Node emits every read synchronously, so a flood can hold the loop for
 * 2 MiB of console work before a status request is looked at. After `maxBytes` in one turn the stream is
 * paused and resumed on the next turn (setImmediate): other I/O runs in between. The process is not slowed
 * for longer than that turn; its pipe buffer absorbs the pause.
 */
import type { Readable } from 'node:stream';

export const READ_BYTES_PER_TURN = 256 * 1024;

export function yieldWhileReading(stream: Readable, maxBytes = READ_BYTES_PER_TURN): void {
  let bytes = 0; // read in this turn
  let paused = false;
  const nextTurn = () => {
    bytes = 0;
    if (!paused) return;
    paused = false;
    stream.resume();
  };
  stream.on('data', (chunk: Buffer) => {
    if (bytes === 0) setImmediate(nextTurn);
    bytes += chunk.length;
    if (bytes < maxBytes || paused) return;
    paused = true;
    stream.pause();
  });
}
