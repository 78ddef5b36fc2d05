import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { AlertRule } from '@hearth/contract';
import type { ServersPage } from '@hearth/contract/servers';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { CopyableText } from '../../components/CopyableText';
import { PageLoader } from '../../components/PageLoader';
import { alertKeys, rulesQuery, type AlertsScope } from './api';
import { DeliveryLog } from './DeliveryLog';
import { RuleDialog } from './RuleDialog';
import { RuleRow } from './RuleRow';
import { newRuleForm, ruleToForm, type RuleForm } from './rule-form';

type Editing = { ruleId: string | null; form: RuleForm } | null;

/** Server names for an administrator's list (the first 100, as the scope picker lists them). */
function useServerNames(enabled: boolean): Map<string, string> {
  const servers = useQuery({
    queryKey: ['alerts', 'servers', ''],
    queryFn: () => api.get<ServersPage>('/api/servers?page=1&limit=100'),
    enabled,
  });
  return new Map((servers.data?.servers ?? []).map((s) => [s.id, s.name]));
}

/**
 * The rules of a scope with Add, and per rule edit, enable, test, log and delete (docs/alerts.md § Screens):
 * the Alerts page (every rule) or a server's Alerts tab.
 */
export function AlertRules({ scope }: { scope: AlertsScope }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useQuery(rulesQuery(scope));
  const names = useServerNames(!scope.serverId);
  const [editing, setEditing] = useState<Editing>(null);
  const [logOf, setLogOf] = useState<AlertRule | null>(null);
  const [secret, setSecret] = useState<string>();
  if (!rules.data) return <PageLoader />;
  const saved = async (generated?: string) => {
    setEditing(null);
    notifySuccess(t('alerts.saved'));
    if (generated) setSecret(generated);
    await queryClient.invalidateQueries({ queryKey: alertKeys.list(scope) });
  };
  return (
    <Card withBorder radius="md" padding="md" data-testid="alert-rules">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('alerts.rules')}</Title>
          <Button
            onClick={() => setEditing({ ruleId: null, form: newRuleForm(scope.serverId) })}
            data-testid="alert-add"
          >
            {t('alerts.add')}
          </Button>
        </Group>
        {rules.data.rules.length === 0 && <Text c="dimmed">{t('alerts.empty')}</Text>}
        {rules.data.rules.map((rule) => (
          <RuleRow
            key={rule.id}
            scope={scope}
            rule={rule}
            serverName={rule.serverId ? names.get(rule.serverId) : undefined}
            onEdit={() => setEditing({ ruleId: rule.id, form: ruleToForm(rule) })}
            onLog={() => setLogOf(rule)}
          />
        ))}
      </Stack>
      {editing && (
        <RuleDialog
          scope={scope}
          ruleId={editing.ruleId}
          initial={editing.form}
          onClose={() => setEditing(null)}
          onSaved={(generated) => void saved(generated)}
        />
      )}
      {logOf && <DeliveryLog scope={scope} rule={logOf} onClose={() => setLogOf(null)} />}
      {secret && (
        <Modal opened onClose={() => setSecret(undefined)} title={t('alerts.secretOnce.title')} size="lg">
          <Stack>
            <Text size="sm">{t('alerts.secretOnce.body')}</Text>
            <CopyableText label={t('alerts.fields.secret')} value={secret} testId="alert-secret-once" />
            <Group justify="flex-end">
              <Button onClick={() => setSecret(undefined)}>{t('common.close')}</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Card>
  );
}
