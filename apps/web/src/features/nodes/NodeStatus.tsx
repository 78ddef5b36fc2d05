import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StatusIndicator } from '../../components/StatusIndicator';
import { nodeHealthQuery, type NodeStatus as Status } from './api';

/**
 * A node's online/offline badge. When the node list already reports a status it is shown as is; otherwise
 * the node's features are asked for (and polled) to tell.
 */
export function NodeStatus({ id, reported }: { id: string; reported?: Status }) {
  const { t } = useTranslation();
  const health = useQuery({ ...nodeHealthQuery(id), enabled: reported === undefined });
  const status = reported ?? health.data?.status ?? 'unknown';
  return <StatusIndicator status={status} label={t(`nodes.status.${status}`)} testId={`node-status-${id}`} />;
}
