import { Alert, Badge, Button, Card, Group, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError, catalogueCodeFor } from '../../api/errors';
import { labelledMetadata } from '../../api/field-names';
import { notifyError, notifySuccess } from '../../api/notify';
import { hasScope, isAdmin } from '../../api/scopes';
import { useSession } from '../../api/useSession';
import { Icon } from '../../components/icons';
import { PageLoader } from '../../components/PageLoader';
import { nodeKeys, nodeLinkStateQuery, nodeQuery, nodesApi } from './api';
import { DeleteNodeButton } from './DeleteNodeButton';
import { DeploymentCard } from './DeploymentCard';
import { BackupDestinationCard } from './backups/BackupDestinationCard';
import { LinkSecurity } from './LinkSecurity';
import { LinkStateBadge, LinkStateCard } from './LinkStateCard';
import { NodeFields } from './NodeFields';
import { emptyNodeForm, formToBody, nodeToForm, validateNode, type NodeFormValues } from './nodeForm';
import { NodeStatus } from './NodeStatus';

/** A failed save names what failed (UpdateError) and why (the catalogue text); unknown errors keep Details. */
function notifySaveError(t: TFunction, title: string, err: unknown): void {
  const code = err instanceof ApiError ? catalogueCodeFor(err) : undefined;
  if (!(err instanceof ApiError) || !code) return notifyError(err);
  const values = labelledMetadata(err.metadata, (key) => t(key));
  notifications.show({ color: 'red', title, message: t(`errors.${code}`, { ...values }) });
}

/** /addnode and /node/{id}. */
export default function NodePage() {
  const { t } = useTranslation();
  const { id } = useParams<{ id: string }>();
  const isNew = id === undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { scopes } = useSession();
  const node = useQuery({ ...nodeQuery(id ?? ''), enabled: !isNew });
  const outbound = node.data?.link === 'outbound';
  const linkState = useQuery({ ...nodeLinkStateQuery(id ?? ''), enabled: !isNew && outbound });
  // The online badge asks the node itself: asked again at once when its link comes or goes.
  const connected = linkState.data?.connected;
  useEffect(() => {
    if (id !== undefined && connected !== undefined) {
      void queryClient.invalidateQueries({ queryKey: nodeKeys.features(id) });
    }
  }, [queryClient, id, connected]);
  const form = useForm<NodeFormValues>({
    initialValues: emptyNodeForm,
    validate: (values) => validateNode(values),
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (node.data) {
      setValues(nodeToForm(node.data));
      resetDirty(nodeToForm(node.data));
    }
  }, [node.data, setValues, resetDirty]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: async (values: NodeFormValues) => {
      const body = formToBody(values);
      if (isNew) {
        const created = await nodesApi.create(body);
        // Handed to the node page, which says that this configuration was just issued.
        queryClient.setQueryData(nodeKeys.issued(created.id), created.deployment);
        return created.id;
      }
      await nodesApi.update(id, body);
      return id;
    },
    onSuccess: async (nodeId) => {
      notifySuccess(t(isNew ? 'nodes.createSuccess' : 'nodes.updateSuccess'));
      await queryClient.invalidateQueries({ queryKey: nodeKeys.all });
      if (isNew) void navigate(`/node/${encodeURIComponent(nodeId)}`, { replace: true });
    },
    onError: (err) => notifySaveError(t, t(isNew ? 'nodes.createError' : 'nodes.updateError'), err),
  });
  if (!isNew && node.isPending) return <PageLoader />;
  const canEdit = hasScope(scopes, 'nodes.edit');
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values))}>
      <Stack>
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2}>
              {isNew ? t('nodes.add.title') : (node.data?.name ?? t('nodes.edit.title'))}
            </Title>
            {node.data?.isLocal && (
              <Badge variant="outline" color="gray">
                {t('nodes.local')}
              </Badge>
            )}
            {!isNew && <NodeStatus id={id} />}
            {outbound && linkState.data && <LinkStateBadge state={linkState.data} />}
            {node.data?.tlsMode === 'plain' && !node.data.isLocal && (
              <Badge variant="light" color="red">
                {t('nodes.tls.plainBadge')}
              </Badge>
            )}
          </Group>
          {!isNew && canEdit && !node.data?.isLocal && (
            <DeleteNodeButton id={id} name={node.data?.name ?? ''} />
          )}
        </Group>
        <Card withBorder radius="md" padding="lg">
          <Stack>
            <Title order={4}>{t('nodes.details')}</Title>
            <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
              <Stack>
                <NodeFields form={form} isLocal={node.data?.isLocal === true} />
                <LinkSecurity form={form} node={node.data} />
              </Stack>
            </fieldset>
          </Stack>
        </Card>
        {canEdit && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {isNew ? t('nodes.create') : t('common.save')}
            </Button>
          </Group>
        )}
        {/* The local node runs inside `hearth start`: nothing to install elsewhere, no credential to hand over. */}
        {!isNew && node.data?.isLocal === true && (
          <Alert color="blue" icon={<Icon name="nodes" />} data-testid="local-node-note">
            {t('nodes.localRunsHere')}
          </Alert>
        )}
        {outbound && linkState.data && <LinkStateCard state={linkState.data} />}
        {!isNew && node.data?.isLocal === false && hasScope(scopes, 'nodes.deploy') && (
          <DeploymentCard nodeId={id} isLocal={false} node={node.data} />
        )}
        {/* The node's backup settings are an administrator's (docs/backups.md § Destinations). */}
        {!isNew && isAdmin(scopes) && <BackupDestinationCard nodeId={id} />}
      </Stack>
    </form>
  );
}
