import { Radio, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { nodeLinkModes } from '@hearth/contract/nodes';
import { useTranslation } from 'react-i18next';
import type { NodeFormValues } from './nodeForm';

/**
 * Who opens the node's link (docs/operations.md § Remote node): the panel dials the node, or the node dials the
 * panel — for a node behind NAT or a firewall. The local node runs beside the panel and is always dialled.
 */
export function LinkModeField({
  form,
  isLocal,
}: {
  form: UseFormReturnType<NodeFormValues>;
  isLocal: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={t('nodes.fields.link')}
      description={t('nodes.fields.linkHint')}
      value={form.getValues().link}
      onChange={(next) => form.setFieldValue('link', next === 'outbound' ? 'outbound' : 'inbound')}
      data-testid="node-link-mode"
    >
      <Stack gap="xs" mt="xs">
        {nodeLinkModes.map((mode) => (
          <Radio
            key={mode}
            value={mode}
            label={t(`nodes.link.${mode}`)}
            description={t(`nodes.link.${mode}Hint`)}
            disabled={isLocal && mode === 'outbound'}
            data-testid={`node-link-${mode}`}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
