/**
 * Alerts over HTTP (docs/alerts.md § API): an administrator's `/api/alerts…` (every rule) or a server's
 * `/api/servers/{id}/alerts…` (the flag manageServerAlerts; that server's rules only). One `AlertsScope` names
 * which, so the list, the dialog and the delivery log are the same components on both screens.
 */
import {
  ALERT_DELIVERIES_MAX,
  type AlertDeliveryList,
  type AlertRule,
  type AlertRuleCreated,
  type AlertRuleInput,
  type AlertRuleList,
} from '@hearth/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Whose rules: every rule (no server) or one server's. */
export interface AlertsScope {
  serverId?: string;
}

const enc = encodeURIComponent;
const base = ({ serverId }: AlertsScope) =>
  serverId ? `/api/servers/${enc(serverId)}/alerts` : '/api/alerts';
const one = (scope: AlertsScope, id: string) => `${base(scope)}/${enc(id)}`;

export const alertKeys = {
  all: ['alerts'] as const,
  list: (scope: AlertsScope) => ['alerts', 'list', scope.serverId ?? ''] as const,
  deliveries: (id: string) => ['alerts', 'deliveries', id] as const,
};

/** While a delivery is pending its row is asked again this often. */
export const PENDING_REFRESH_MS = 1000;

export const rulesQuery = (scope: AlertsScope) =>
  queryOptions({
    queryKey: alertKeys.list(scope),
    queryFn: () => api.get<AlertRuleList>(base(scope)),
  });

/**
 * A rule's whole delivery log: the panel keeps each rule's newest 200 rows, so one call holds every page the
 * log shows (newest first). Asked again while any row is still pending.
 */
export const deliveriesQuery = (scope: AlertsScope, id: string) =>
  queryOptions({
    queryKey: alertKeys.deliveries(id),
    queryFn: () => api.get<AlertDeliveryList>(`${one(scope, id)}/deliveries?limit=${ALERT_DELIVERIES_MAX}`),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false,
  });

/** A server's routes take no serverId in the body (the path names the server). */
export const alertsApi = {
  create: (scope: AlertsScope, body: AlertRuleInput) => api.post<AlertRuleCreated>(base(scope), body),
  update: (scope: AlertsScope, id: string, body: AlertRuleInput) => api.put<AlertRule>(one(scope, id), body),
  remove: (scope: AlertsScope, id: string) => api.delete<void>(one(scope, id)),
  test: (scope: AlertsScope, id: string) => api.post<{ deliveryId: string }>(`${one(scope, id)}/test`),
};
