/**
 * The daemon under test for `bench:files`, in its own process, from a node.json (argv[2]). Prints
 * `{port, sftpPort}` as JSON once listening.
 */
import { loadDaemonConfig, startDaemon } from '@hearth/daemon';

const daemon = await startDaemon(loadDaemonConfig(process.argv[2] ?? 'node.json'));
process.stdout.write(`${JSON.stringify({ port: daemon.port, sftpPort: daemon.sftpPort })}\n`);
process.once('SIGTERM', () => {
  daemon.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
