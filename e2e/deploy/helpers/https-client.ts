/**
 * HTTPS requests to the proxy that trust only the test's self-signed certificate, optionally from another
 * loopback address (127.0.0.2, …: distinct clients as nginx sees them), and a streamed multipart upload whose
 * body is generated chunk by chunk (never held in memory) while its sha256 is computed.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface ClientOptions {
  port: number;
  ca: string;
  /** The source address of the connection (any 127.x address works on Linux loopback). */
  localAddress?: string;
}

export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** A JSON body, or a stream piped as is. */
  body?: unknown;
}

export async function httpsCall(o: ClientOptions, call: Call): Promise<Answer> {
  const headers: Record<string, string | number> = { ...call.headers };
  const stream = call.body instanceof Readable ? call.body : undefined;
  let json: string | undefined;
  if (call.body !== undefined && !stream) {
    json = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  const req = request({
    host: '127.0.0.1',
    servername: 'localhost',
    port: o.port,
    method: call.method,
    path: call.path,
    headers: { host: `localhost:${o.port}`, ...headers },
    ca: o.ca,
    localAddress: o.localAddress,
    agent: false,
  });
  const answer = new Promise<Answer>((done, fail) => {
    req.once('error', fail);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.once('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.once('error', fail);
    });
  });
  if (stream) await pipeline(stream, req);
  else req.end(json);
  return answer;
}

export interface StreamedUpload {
  body: Readable;
  contentType: string;
  length: number;
  /** The sha256 of the file part, complete once the body has been read to its end. */
  sha256(): string;
}

/** A multipart/form-data body with one file of `size` bytes (1 MiB blocks, each stamped with its index). */
export function streamedUpload(size: number, filename: string): StreamedUpload {
  const boundary = `hearth-deploy-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  const block = Buffer.alloc(1 << 20, 0x5a);
  async function* parts() {
    yield head;
    for (let sent = 0, index = 0; sent < size; index += 1) {
      const chunk = Buffer.from(block.subarray(0, Math.min(block.length, size - sent)));
      chunk.writeUInt32BE(index, 0);
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
    yield tail;
  }
  return {
    body: Readable.from(parts(), { objectMode: false }),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    sha256: () => hash.digest('hex'),
  };
}
