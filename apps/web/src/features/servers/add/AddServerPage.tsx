import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { panelScopeOf } from '@hearth/contract';
import type { StoredTemplate } from '@hearth/contract/templates-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasScope } from '../../../api/scopes';
import { useSession } from '../../../api/useSession';
import { SelectField } from '../../../components/SelectField';
import { StringListEditor } from '../../../components/StringListEditor';
import { nodeChoicesQuery } from '../../nodes/api';
import { templateQuery, templatesQuery } from '../../templates/api';
import { serverKeys, serversApi } from '../api';
import { VariableFields } from '../variables/VariableFields';
import { initialValues, serverNameError, variableErrors, type VariableValue } from '../variables/values';
import { createBody, creationVariables, environmentsOnNode, type EnvEntry } from './model';
import { InstallPrompt } from './InstallPrompt';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** /addserver: template, node, environment, variables, name, users; create then offer install. */
export default function AddServerPage() {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery);
  // The picker list, not GET /api/nodes: creators need not hold viewNodes.
  const nodes = useQuery(nodeChoicesQuery);
  const [templateId, setTemplateId] = useState('');
  const [nodeId, setNodeId] = useState('');
  const template = useQuery({ ...templateQuery(templateId), enabled: templateId !== '' });
  const node = nodes.data?.find((n) => n.id === nodeId);
  useEffect(() => {
    if (!nodeId && nodes.data?.[0]) setNodeId(nodes.data[0].id);
  }, [nodes.data, nodeId]);
  return (
    <Stack>
      <Title order={2}>{t('servers.add.title')}</Title>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectField
            label={t('servers.add.template')}
            placeholder={t('servers.add.chooseTemplate')}
            searchable
            data={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.display || tpl.name }))}
            value={templateId}
            onChange={setTemplateId}
            nothingFoundMessage={t('servers.add.noTemplates')}
          />
          <SelectField
            label={t('servers.add.node')}
            data={(nodes.data ?? []).map((n) => ({ value: n.id, label: n.name }))}
            value={nodeId}
            onChange={setNodeId}
          />
        </SimpleGrid>
      </Card>
      {template.data && nodeId && (
        <ServerForm
          key={`${templateId}/${nodeId}`}
          template={template.data}
          nodeId={nodeId}
          nodeEnvironments={node?.environments}
        />
      )}
      {!templateId && (
        <Text c="dimmed" ta="center" py="xl">
          {t('servers.add.pickTemplate')}
        </Text>
      )}
    </Stack>
  );
}

interface FormProps {
  template: StoredTemplate;
  nodeId: string;
  nodeEnvironments?: readonly string[];
}

function ServerForm({ template, nodeId, nodeEnvironments }: FormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Admin-only variables (`userEdit: false`) are shown and sent only to those allowed to set them.
  const canSetLocked = hasScope(useSession().scopes, panelScopeOf.editServerAdmin);
  const variables = useMemo(() => creationVariables(template, canSetLocked), [template, canSetLocked]);
  const environments = environmentsOnNode(template, nodeEnvironments);
  const [envType, setEnvType] = useState('');
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, VariableValue>>(() => initialValues(variables));
  const [users, setUsers] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const environment = environments.find((e) => e.type === envType) ?? environments[0];
  const nameError = serverNameError(name);
  const errors = variableErrors(variables, values);
  const badUsers = users.filter((u) => !EMAIL.test(u));
  const create = useMutation({
    mutationFn: (env: EnvEntry) =>
      serversApi.create(
        createBody({ template, name, node: nodeId, environment: env, values, users, canSetLocked }),
      ),
    onSuccess: async ({ id }) => {
      await queryClient.invalidateQueries({ queryKey: serverKeys.all });
      setCreated(id);
    },
  });
  const submit = () => {
    setSubmitted(true);
    if (nameError || Object.keys(errors).length > 0 || badUsers.length > 0 || !environment) return;
    create.mutate(environment);
  };
  return (
    <>
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Title order={4}>{t('servers.add.general')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('fields.name')}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={submitted && nameError ? t(nameError) : undefined}
            />
            {environments.length > 0 ? (
              <SelectField
                label={t('servers.add.environment')}
                data={environments.map((e) => ({
                  value: e.type,
                  label: t(`servers.environments.${e.type}`),
                }))}
                value={environment?.type ?? ''}
                onChange={setEnvType}
              />
            ) : (
              <Alert color="red">{t('servers.add.noEnvironment')}</Alert>
            )}
          </SimpleGrid>
        </Stack>
      </Card>
      {Object.keys(variables).length > 0 && (
        <Card withBorder radius="md" padding="lg">
          <Stack>
            <Title order={4}>{t('servers.add.variables')}</Title>
            <VariableFields
              data={variables}
              values={values}
              onChange={setValues}
              errors={submitted ? errors : {}}
            />
          </Stack>
        </Card>
      )}
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Title order={4}>{t('servers.add.users')}</Title>
          <Text size="sm" c="dimmed">
            {t('servers.add.usersHint')}
          </Text>
          <StringListEditor
            value={users}
            onChange={setUsers}
            addLabel={t('servers.add.addUser')}
            removeLabel={t('common.delete')}
            placeholder={t('fields.email')}
            testId="server-users"
          />
          {submitted && badUsers.length > 0 && (
            <Text c="red" size="sm">
              {t('servers.add.badEmails', { emails: badUsers.join(', ') })}
            </Text>
          )}
        </Stack>
      </Card>
      <Group justify="flex-end">
        <Button onClick={submit} loading={create.isPending}>
          {t('servers.add.create')}
        </Button>
      </Group>
      <InstallPrompt serverId={created} name={name} />
    </>
  );
}
