// One websocket console subscriber in its own process (forked by subscriber.ts with an IPC channel), so the
// benchmark's client work runs outside the daemon's and the coordinator's event loops.
// IPC in: {until: text}, {close}. IPC out: {open}, {armed: text}, {reached: text, lines, dropped, latencies}.
import WebSocket from 'ws';

const [url, token] = process.argv.slice(2);
let lines = 0;
let dropped = 0;
let latencies = [];
let partial = '';
let waiting = null;

function onLine(line, now) {
  if (line.startsWith('flood line') || line.startsWith('L ')) lines++;
  const stamped = /^L \d+ (\d+)$/.exec(line);
  if (stamped) latencies.push(now - Number(stamped[1]));
  if (waiting !== null && line.includes(waiting)) {
    process.send({ reached: waiting, lines, dropped, latencies });
    waiting = null;
    lines = 0;
    dropped = 0;
    latencies = [];
  }
}

const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
// Ready once the daemon itself answers: through the panel proxy the browser side opens before the relay's own
// daemon socket, and lines written in between would never reach this subscriber (counted as lost).
let ready = false;
ws.on('open', () => ws.send(JSON.stringify({ type: 'status' })));
ws.on('error', (err) => {
  console.error(`subscriber: ${err.message}`);
  process.exit(1);
});
ws.on('message', (raw) => {
  const message = JSON.parse(raw.toString('utf8'));
  if (!ready && message.type === 'status') {
    ready = true;
    process.send({ open: true });
  }
  if (message.type !== 'console') return;
  const now = Date.now();
  dropped += message.data.dropped ?? 0;
  const split = (partial + (message.data.logs ?? []).join('')).split('\n');
  partial = split.pop() ?? '';
  for (const line of split) onLine(line, now);
});
process.on('message', (msg) => {
  if (msg.until) {
    waiting = msg.until;
    process.send({ armed: msg.until });
  }
  if (msg.close) ws.close();
});
ws.on('close', (code, reason) => {
  // Closed before the daemon answered is a failure the benchmark must see, with the reason.
  if (!ready) console.error(`subscriber: closed before ready (${code} ${reason.toString('utf8')})`);
  process.exit(ready ? 0 : 1);
});
