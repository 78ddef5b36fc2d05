/**
 * `npm run bench`: every benchmark in turn, each printing its method and figures.
 * One at a time on purpose: they share two cores, and concurrent runs would measure each other.
 */
// Tags this process so no child outlives it, whatever way the run ends (children.ts).
import './children';
import { runApiBench } from './api/run';
import { runConsoleBench } from './console/run';
import { runFilesBench } from './files/run';
import { runOutboundConsoleBench } from './link/console-outbound';
import { runMetricsBench } from './metrics/run';
import { runStartupBench } from './startup/run';
import { runUploadBench } from './upload/run';

const benches: Array<[string, () => Promise<void>]> = [
  ['console', runConsoleBench],
  ['api', runApiBench],
  ['files', runFilesBench],
  ['upload', runUploadBench],
  ['link', () => runOutboundConsoleBench({ rounds: 3 })],
  ['metrics', runMetricsBench],
  ['startup', runStartupBench],
];
const only = process.argv.slice(2);
for (const [name, run] of benches) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n### bench: ${name}`);
  await run();
}
