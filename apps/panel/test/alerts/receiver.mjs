// A webhook receiver as a separate process (docs/alerts.md § Verifying): it checks each request's
// X-Hearth-Signature over `timestamp.body` with the shared secret (argv[2]) and refuses timestamps more than five
// minutes off, as a real receiver should. It prints `{"port":N}` once listening, then one JSON line per request:
// {path, valid, body, at} (`at`: when it arrived, for bench:alerts). Paths choose the answer: /ok 204, /fail 500, /redirect 302 to loopback, /slow never.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.argv[2] ?? '';

function verify(req, body) {
  const timestamp = req.headers['x-hearth-timestamp'];
  const given = req.headers['x-hearth-signature'];
  if (typeof timestamp !== 'string' || typeof given !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    process.stdout.write(`${JSON.stringify({ path, valid: verify(req, body), body, at: Date.now() })}\n`);
    if (path === '/fail') return void res.writeHead(500).end('no');
    if (path === '/redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:9/' }).end();
    if (path === '/slow') return; // never answers: the panel's timeout ends it
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
