/**
 * A second upload client for `bench:files`, next to (not instead of) the `fetch` + `FormData` one: the same
 * multipart request (one `file` part, Content-Length known) written by `node:http` straight from the
 * in-memory payload. `fetch` copies every chunk of a Blob's stream (undici, web streams) and alone costs about
 * as much CPU as the panel and the daemon together; on two shared cores the headline figure is then bounded by
 * the client. This one shows what the panel and the daemon sustain. Same server work, byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

const SLICE = 4 * 1024 * 1024;

/** PUTs `payload` as multipart field `file` (file name `name`) to `url`; resolves with the status. */
export function leanUpload(url: string, token: string, payload: Buffer, name: string): Promise<number> {
  const boundary = `----hearth-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n` +
      'content-type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + payload.length + tail.length,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    const pieces: Buffer[] = [head];
    for (let at = 0; at < payload.length; at += SLICE) pieces.push(payload.subarray(at, at + SLICE));
    pieces.push(tail);
    const next = (): void => {
      for (let piece = pieces.shift(); piece; piece = pieces.shift()) {
        if (!req.write(piece)) return void req.once('drain', next);
      }
      req.end();
    };
    next();
  });
}
