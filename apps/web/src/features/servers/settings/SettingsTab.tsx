import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../api/notify';
import { PageLoader } from '../../../components/PageLoader';
import type { ServerDataResponse, VariableEffect } from '@hearth/contract';
import { serverDataQuery, serverKeys, serversApi } from '../api';
import type { ServerTabProps } from '../tabs';
import { VariableFields } from '../variables/VariableFields';
import { initialValues, variableErrors, wireValues, type VariableValue } from '../variables/values';

/** Settings tab: one typed input per user-editable variable, and save. */
export default function SettingsTab({ server }: ServerTabProps) {
  const data = useQuery(serverDataQuery(server.id));
  if (!data.data) return <PageLoader />;
  return <SettingsForm serverId={server.id} response={data.data} />;
}

/** The saved message: what the changed variables need before they apply, strongest first. */
function savedMessage(changed: string[], effects: Record<string, VariableEffect[]>): string {
  const all = changed.flatMap((name) => effects[name] ?? []);
  if (all.includes('reinstall')) return 'servers.settings.savedReinstall';
  if (all.includes('restart')) return 'servers.settings.savedRestart';
  return 'common.saved';
}

function SettingsForm({ serverId, response }: { serverId: string; response: ServerDataResponse }) {
  const { data, effects = {} } = response;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const editable = useMemo(
    () => Object.fromEntries(Object.entries(data).filter(([, v]) => v.userEdit)),
    [data],
  );
  const [values, setValues] = useState<Record<string, VariableValue>>(() => initialValues(editable));
  const [submitted, setSubmitted] = useState(false);
  /** The values as last saved: a save names the effects of what changed since. */
  const saved = useRef(values);
  const errors = variableErrors(editable, values);
  const save = useMutation({
    mutationFn: () => serversApi.saveData(serverId, wireValues(editable, values)),
    onSuccess: async () => {
      const changed = Object.keys(editable).filter((name) => values[name] !== saved.current[name]);
      saved.current = values;
      notifySuccess(t(savedMessage(changed, effects)));
      await queryClient.invalidateQueries({ queryKey: serverKeys.data(serverId) });
    },
  });
  const submit = () => {
    setSubmitted(true);
    if (Object.keys(errors).length === 0) save.mutate();
  };
  const empty = Object.keys(editable).length === 0;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="settings-tab">
      <Stack>
        <Title order={4}>{t('servers.settings.title')}</Title>
        {empty ? (
          <Text c="dimmed">{t('servers.settings.empty')}</Text>
        ) : (
          <VariableFields
            data={editable}
            values={values}
            onChange={setValues}
            errors={submitted ? errors : {}}
            effects={effects}
          />
        )}
        {!empty && (
          <Group justify="flex-end">
            <Button loading={save.isPending} onClick={submit}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
