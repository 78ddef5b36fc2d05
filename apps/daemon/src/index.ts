/** Public surface of the daemon package (used by the CLI). */
export { daemonConfigSchema, type DaemonConfig, type DaemonConfigInput } from './config/schema';
export { DaemonConfigError, loadDaemonConfig, localDaemonConfig, parseDaemonConfig } from './config/load';
export { startDaemon, type DaemonDeps, type RunningDaemon } from './daemon';
export type { SchedulerClock } from './scheduler/clock';
