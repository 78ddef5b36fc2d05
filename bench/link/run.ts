/**
 * `npm run bench:link`: the outbound node link's benchmarks (docs/performance.md § Outbound node link).
 * BENCH_LINK_ROUNDS sets the number of alternating rounds (default 3).
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import '../children';
import { runOutboundConsoleBench } from './console-outbound';

await runOutboundConsoleBench({ rounds: Number(process.env.BENCH_LINK_ROUNDS ?? 3) });
