import type { BackupDestinationType, BackupNodeStatus } from '@hearth/contract/backups';
import { Button, Card, Group, SegmentedControl, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import { nodeBackupsApi, nodeBackupsKey, nodeBackupsQuery } from './api';
import { CheckStatus } from './CheckStatus';
import {
  destinationBody,
  destinationForm,
  FIELDS,
  MULTILINE,
  SECRETS,
  type DestinationForm,
} from './destination-form';

const TYPES: BackupDestinationType[] = ['local', 'sftp', 's3', 'rest'];

/** The node's backup destination and repository checks, for administrators (docs/backups.md). */
export function BackupDestinationCard({ nodeId }: { nodeId: string }) {
  const status = useQuery(nodeBackupsQuery(nodeId));
  return (
    <Card withBorder radius="md" padding="lg" data-testid="node-backups">
      {status.data ? (
        <DestinationEditor
          key={JSON.stringify(status.data.destination)}
          nodeId={nodeId}
          status={status.data}
        />
      ) : (
        <PageLoader />
      )}
    </Card>
  );
}

function DestinationEditor({ nodeId, status }: { nodeId: string; status: BackupNodeStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<DestinationForm>(() => destinationForm(status.destination));
  const refresh = () => queryClient.invalidateQueries({ queryKey: nodeBackupsKey(nodeId) });
  const save = useMutation({
    mutationFn: () => nodeBackupsApi.save(nodeId, destinationBody(form)),
    onSuccess: async () => {
      notifySuccess(t('nodes.backups.saved'));
      await refresh();
    },
    onError: notifyError,
  });
  const check = useMutation({
    mutationFn: () => nodeBackupsApi.check(nodeId),
    onSuccess: async () => {
      notifySuccess(t('nodes.backups.checked'));
      await refresh();
    },
    onError: notifyError,
  });
  const stored = new Set(form.type === status.destination.type ? status.destination.secrets : []);
  const set = (field: string, value: string) =>
    setForm({ ...form, values: { ...form.values, [field]: value } });
  return (
    <Stack>
      <Title order={4}>{t('nodes.backups.title')}</Title>
      <CheckStatus status={status} />
      <SegmentedControl
        value={form.type}
        onChange={(v) => setForm({ ...form, type: v })}
        data={TYPES.map((type) => ({ value: type, label: t(`nodes.backups.types.${type}`) }))}
        data-testid="node-backups-type"
      />
      {FIELDS[form.type].map((field) => {
        const props = {
          label: t(`nodes.backups.fields.${form.type === 'local' && field === 'path' ? 'localPath' : field}`),
          value: form.values[field] ?? '',
          placeholder: SECRETS.has(field) && stored.has(field) ? t('nodes.backups.secretKept') : undefined,
          onChange: (e: { currentTarget: { value: string } }) => set(field, e.currentTarget.value),
          'data-testid': `node-backups-${field}`,
        };
        return MULTILINE.has(field) ? (
          <Textarea key={field} {...props} autosize minRows={2} />
        ) : (
          <TextInput key={field} {...props} />
        );
      })}
      <Group justify="flex-end">
        <Button
          variant="default"
          loading={check.isPending}
          onClick={() => check.mutate()}
          data-testid="node-backups-check"
        >
          {t('nodes.backups.checkNow')}
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()} data-testid="node-backups-save">
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}
