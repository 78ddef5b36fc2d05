/**
 * Who may read the daemon's /metrics (docs/daemon.md § Metrics): the shared check of the metrics token or
 * allow list (packages/contract/src/metrics-access.ts); metrics off → 404 before either.
 */
import { AppError } from '@hearth/contract';
import { metricsAccessCheck, type MetricsAccess } from '@hearth/contract/metrics-access';

export interface MetricsAccessConfig extends MetricsAccess {
  enabled: boolean;
}

export function metricsGuard(config: MetricsAccessConfig): (authorization: unknown, ip: string) => void {
  const check = metricsAccessCheck(config);
  return (authorization, ip) => {
    if (!config.enabled) throw new AppError('ErrNotFound');
    check(authorization, ip);
  };
}
