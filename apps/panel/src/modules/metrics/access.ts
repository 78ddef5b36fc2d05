/**
 * Who may read the panel's /metrics (docs/configuration.md § Metrics): the same token-or-allow-list check as
 * each daemon's (packages/contract/src/metrics-access.ts); the route exists only while metrics are enabled.
 */
export { metricsAccessCheck as metricsGuard } from '@hearth/contract/metrics-access';
