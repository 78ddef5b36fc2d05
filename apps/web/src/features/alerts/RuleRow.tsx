import { Badge, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import type { AlertRule } from '@hearth/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { useFormat } from '../../i18n/format';
import { alertKeys, alertsApi, deliveriesQuery, PENDING_REFRESH_MS, type AlertsScope } from './api';
import { describeChannel, describeCondition } from './describe';
import { statusColor } from './DeliveryLog';
import { ruleBody, ruleToForm } from './rule-form';

interface Props {
  scope: AlertsScope;
  rule: AlertRule;
  /** The server's name for an administrator's list (its id when not known). */
  serverName?: string;
  onEdit: () => void;
  onLog: () => void;
}

/** One rule: what it watches and where it sends, its switch, its last delivery, and its actions. */
export function RuleRow({ scope, rule, serverName, onEdit, onLog }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  const queryClient = useQueryClient();
  const [testId, setTestId] = useState<string>();
  const log = useQuery({
    ...deliveriesQuery(scope, rule.id),
    // Asked again while a row is pending, or while the test just sent has not reached the log yet.
    refetchInterval: (query) => {
      const rows = query.state.data?.deliveries ?? [];
      const awaited = testId !== undefined && !rows.some((d) => d.id === testId);
      return awaited || rows.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false;
    },
  });
  const last = log.data?.deliveries[0];
  const tested = testId ? log.data?.deliveries.find((d) => d.id === testId) : undefined;
  const refreshList = () => queryClient.invalidateQueries({ queryKey: alertKeys.list(scope) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      alertsApi.update(scope, rule.id, ruleBody({ ...ruleToForm(rule), enabled }, true, !scope.serverId)),
    onSuccess: refreshList,
  });
  const test = useMutation({
    mutationFn: () => alertsApi.test(scope, rule.id),
    onSuccess: async ({ deliveryId }) => {
      setTestId(deliveryId);
      await queryClient.invalidateQueries({ queryKey: alertKeys.deliveries(rule.id) });
    },
  });
  const scopeLabel = rule.serverId
    ? t('alerts.onServer', { name: serverName ?? rule.serverId })
    : t('alerts.everyServer');
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`alert-rule-${rule.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ wordBreak: 'break-word' }}>
              {rule.name}
            </Text>
            <Group gap={6}>
              {!scope.serverId && (
                <Badge
                  variant="light"
                  color={rule.serverId ? 'blue' : 'grape'}
                  data-testid="alert-scope-badge"
                >
                  {scopeLabel}
                </Badge>
              )}
            </Group>
          </Stack>
          <Switch
            aria-label={t('alerts.enabled')}
            label={t('alerts.enabled')}
            checked={toggle.isPending ? toggle.variables : rule.enabled}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            data-testid="alert-enabled"
          />
        </Group>
        <Text size="sm" data-testid="alert-summary">
          {describeCondition(rule.condition, t)}
        </Text>
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }} data-testid="alert-channel-summary">
          {describeChannel(rule.channel, t)}
        </Text>
        <Group gap={6} data-testid="alert-last">
          {last ? (
            <>
              <Badge color={statusColor[last.status]} variant="light">
                {t(`alerts.statuses.${last.status}`)}
              </Badge>
              <Text size="xs" c="dimmed">
                {t('alerts.lastDelivery', { when: format.dateTime(last.time) })}
              </Text>
            </>
          ) : (
            <Text size="xs" c="dimmed">
              {t('alerts.neverSent')}
            </Text>
          )}
        </Group>
        {testId && (
          <Text
            size="sm"
            c={tested?.status === 'failed' ? 'red' : tested?.status === 'delivered' ? 'green' : 'dimmed'}
            data-testid="alert-test-result"
            data-status={tested?.status ?? 'pending'}
          >
            {tested?.status === 'delivered'
              ? t('alerts.test.delivered')
              : tested?.status === 'failed'
                ? t('alerts.test.failed', { error: tested.lastError ?? '' })
                : t('alerts.test.pending')}
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onEdit} data-testid="alert-edit">
            {t('alerts.edit')}
          </Button>
          <Button
            size="xs"
            variant="light"
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="alert-test"
          >
            {t('alerts.sendTest')}
          </Button>
          <Button size="xs" variant="default" onClick={onLog} data-testid="alert-log-open">
            {t('alerts.log')}
          </Button>
          <ConfirmDeleteButton
            size="xs"
            title={t('alerts.deleteTitle', { name: rule.name })}
            onDelete={() => alertsApi.remove(scope, rule.id)}
            onDeleted={async () => {
              notifySuccess(t('alerts.deleted'));
              await refreshList();
            }}
          >
            <Text size="sm">{t('alerts.deleteBody')}</Text>
          </ConfirmDeleteButton>
        </Group>
      </Stack>
    </Paper>
  );
}
