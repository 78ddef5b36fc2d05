// Prints the round-trip time (ms) of GET <url> every 20 ms until killed.
const [url, token] = process.argv.slice(2);
for (;;) {
  const t0 = performance.now();
  await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  console.log((performance.now() - t0).toFixed(2));
  await new Promise((r) => setTimeout(r, 20));
}
