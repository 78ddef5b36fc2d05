/** The daemon under the metrics benchmark, in its own process (its CPU and RSS are read from /proc). */
import { parseDaemonConfig, startDaemon } from '@hearth/daemon';

const config = parseDaemonConfig(JSON.parse(process.env.BENCH_DAEMON_CONFIG ?? '{}'));
const daemon = await startDaemon(config);
console.log(`PORT ${daemon.port}`);
process.on('SIGTERM', () => {
  daemon.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
