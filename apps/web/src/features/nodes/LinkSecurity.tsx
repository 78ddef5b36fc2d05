import { Alert, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { nodeTlsModes, type NodeTlsMode, type NodeView } from '@hearth/contract/nodes';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import { SelectField } from '../../components/SelectField';
import type { NodeFormValues } from './nodeForm';

/**
 * The node's link mode and what it means (docs/security.md § Node link): a warning while the link is plain
 * HTTP, the operator's part for `ca`, and a rotation notice for a node that has no certificate yet.
 */
export function LinkSecurity({
  form,
  node,
}: {
  form: UseFormReturnType<NodeFormValues>;
  node: NodeView | undefined;
}) {
  const { t } = useTranslation();
  const mode = form.getValues().tlsMode;
  return (
    <Stack gap="sm">
      <SelectField<NodeTlsMode>
        label={t('nodes.fields.tlsMode')}
        description={t('nodes.fields.tlsModeHint')}
        data={nodeTlsModes.map((value) => ({ value, label: t(`nodes.tls.${value}`) }))}
        disabled={node?.isLocal}
        maw={{ sm: '50%' }}
        data-testid="node-tls-mode"
        value={mode}
        onChange={(next) => form.setFieldValue('tlsMode', next)}
      />
      {mode === 'plain' && !node?.isLocal && (
        <Alert color="red" icon={<Icon name="alert" />} data-testid="node-plain-warning">
          {t('nodes.tls.plainWarning')}
        </Alert>
      )}
      {mode === 'ca' && (
        <Text size="sm" c="dimmed">
          {t('nodes.tls.caHint')}
        </Text>
      )}
      {node?.tlsNeedsRotate && mode === 'pinned' && (
        <Alert color="yellow" icon={<Icon name="alert" />} data-testid="node-needs-rotate">
          {t('nodes.tls.needsRotate')}
        </Alert>
      )}
    </Stack>
  );
}
