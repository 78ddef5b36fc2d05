// Prints the round-trip time (ms) of GET <url> every 20 ms until killed. The bearer token comes on stdin, one per
// line, the latest winning: the benchmark sends fresh ones, as daemon tokens live 60 s (docs/performance.md).
import { createInterface } from 'node:readline';

const [url] = process.argv.slice(2);
let token = null;
const first = new Promise((resolve) =>
  createInterface({ input: process.stdin }).on('line', (line) => {
    token = line.trim();
    resolve();
  }),
);
await first;
for (;;) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) {
    console.error(`status probe: HTTP ${res.status}`);
    process.exit(1);
  }
  console.log((performance.now() - t0).toFixed(2));
  await new Promise((r) => setTimeout(r, 20));
}
