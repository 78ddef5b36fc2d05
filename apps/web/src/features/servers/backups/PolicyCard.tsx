import type { BackupPolicyView } from '@hearth/contract/backups';
import {
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import { formatBytes, formatNumber } from '../../../i18n/format';
import { backupKeys, backupsApi, policyQuery } from './api';
import type { Can } from './BackupRow';
import { HooksEditor } from './HooksEditor';
import { hooksErrors, policyBody, policyForm, type PolicyForm } from './policy-form';

const RETENTION = ['keepLast', 'keepDaily', 'keepWeekly', 'keepMonthly'] as const;
const LIMITS = ['maxSnapshots', 'maxRepositoryBytes', 'minIntervalSeconds'] as const;

interface Props {
  serverId: string;
  admin: boolean;
  can: Can;
}

/** The server's policy: schedule, retention, hooks; limits editable by administrators only. */
export function PolicyCard({ serverId, admin, can }: Props) {
  const policy = useQuery(policyQuery(serverId));
  if (!policy.data) return <PageLoader />;
  return (
    <PolicyEditor
      key={JSON.stringify(policy.data)}
      serverId={serverId}
      admin={admin}
      can={can}
      view={policy.data}
    />
  );
}

function PolicyEditor({ serverId, admin, can, view }: Props & { view: BackupPolicyView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<PolicyForm>(() => policyForm(view));
  const editable = can('createServerBackups');
  const retentionEditable = editable && can('deleteServerBackups');
  const hooksEditable = editable && can('sendServerConsole');
  const hookErrors = form.hooks === 'custom' && hooksEditable ? hooksErrors(form.custom) : new Set<never>();
  const save = useMutation({
    mutationFn: () => backupsApi.savePolicy(serverId, policyBody(form, view, hooksEditable)),
    onSuccess: async () => {
      notifySuccess(t('servers.backups.policy.saved'));
      await queryClient.invalidateQueries({ queryKey: backupKeys.policy(serverId) });
      await queryClient.invalidateQueries({ queryKey: backupKeys.list(serverId) });
    },
    onError: notifyError,
  });
  const limitText = (key: (typeof LIMITS)[number], value: number | null) =>
    value === null
      ? t('servers.backups.policy.noLimit')
      : key === 'maxRepositoryBytes'
        ? formatBytes(value)
        : formatNumber(value);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="backup-policy">
      <Stack>
        <Title order={5}>{t('servers.backups.policy.title')}</Title>
        <TextInput
          label={t('servers.backups.policy.schedule')}
          placeholder="0 4 * * *"
          value={form.schedule}
          disabled={!editable}
          onChange={(e) => setForm({ ...form, schedule: e.currentTarget.value })}
          data-testid="backup-policy-schedule"
        />
        <Group grow>
          {RETENTION.map((key) => (
            <NumberInput
              key={key}
              label={t(`servers.backups.policy.${key}`)}
              min={0}
              max={10000}
              value={form.retention[key]}
              disabled={!retentionEditable}
              onChange={(v) => setForm({ ...form, retention: { ...form.retention, [key]: Number(v) || 0 } })}
              data-testid={`backup-policy-${key}`}
            />
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          {t('servers.backups.policy.retentionHint')}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('servers.backups.policy.hooks')}
          </Text>
          <SegmentedControl
            value={form.hooks}
            disabled={!hooksEditable}
            onChange={(v) => setForm({ ...form, hooks: v })}
            data={[
              { value: 'template', label: t('servers.backups.policy.hooksTemplate') },
              { value: 'none', label: t('servers.backups.policy.hooksNone') },
              { value: 'custom', label: t('servers.backups.policy.hooksCustom') },
            ]}
            data-testid="backup-policy-hooks"
          />
          {form.hooks === 'custom' && (
            <HooksEditor
              value={form.custom}
              errors={hookErrors}
              disabled={!hooksEditable}
              onChange={(custom) => setForm({ ...form, custom })}
            />
          )}
        </Stack>
        <Group grow align="flex-start" data-testid="backup-policy-limits">
          {LIMITS.map((key) =>
            admin ? (
              <NumberInput
                key={key}
                label={t(`servers.backups.policy.${key}`)}
                min={1}
                value={form.limits[key] ?? ''}
                placeholder={t('servers.backups.policy.noLimit')}
                onChange={(v) =>
                  setForm({ ...form, limits: { ...form.limits, [key]: v === '' ? null : Number(v) } })
                }
                data-testid={`backup-policy-${key}`}
              />
            ) : (
              <Stack key={key} gap={0}>
                <Text size="sm" fw={500}>
                  {t(`servers.backups.policy.${key}`)}
                </Text>
                <Text size="sm" c="dimmed">
                  {limitText(key, view.limits[key])}
                </Text>
              </Stack>
            ),
          )}
        </Group>
        {editable && (
          <Group justify="flex-end">
            <Button
              onClick={() => save.mutate()}
              loading={save.isPending}
              disabled={hookErrors.size > 0}
              data-testid="backup-policy-save"
            >
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
