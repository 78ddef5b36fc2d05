import { Collapse, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { LinkModeField } from './LinkModeField';
import type { NodeFormValues } from './nodeForm';

/**
 * Name, link mode, public address, optional separate private address, SFTP port. For a node that dials the
 * panel the public host is the panel's (users' SFTP is relayed there), the SFTP port one the panel listens on,
 * and the private address is not used (the API still requires it).
 */
export function NodeFields({
  form,
  isLocal = false,
}: {
  form: UseFormReturnType<NodeFormValues>;
  isLocal?: boolean;
}) {
  const { t } = useTranslation();
  const props = (key: keyof NodeFormValues) => {
    const error = form.errors[key];
    return { ...form.getInputProps(key), error: typeof error === 'string' ? t(error) : undefined };
  };
  const separate = form.getValues().separatePrivate;
  const outbound = form.getValues().link === 'outbound';
  return (
    <Stack>
      <TextInput label={t('fields.name')} required {...props('name')} />
      <LinkModeField form={form} isLocal={isLocal} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('nodes.fields.publicHost')}
          description={t(outbound ? 'nodes.link.publicHostHint' : 'nodes.fields.publicHostHint')}
          required
          {...props('publicHost')}
        />
        <NumberInput
          label={t('nodes.fields.publicPort')}
          description={t('nodes.fields.publicPortHint')}
          min={1}
          max={65535}
          allowDecimal={false}
          required
          {...props('publicPort')}
        />
      </SimpleGrid>
      <Switch
        label={t('nodes.fields.separatePrivate')}
        description={t('nodes.fields.separatePrivateHint')}
        {...form.getInputProps('separatePrivate', { type: 'checkbox' })}
      />
      {outbound && (
        <Text size="sm" c="dimmed" data-testid="node-private-unused">
          {t('nodes.link.privateUnused')}
        </Text>
      )}
      <Collapse expanded={separate}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('nodes.fields.privateHost')} required {...props('privateHost')} />
          <NumberInput
            label={t('nodes.fields.privatePort')}
            min={1}
            max={65535}
            allowDecimal={false}
            required
            {...props('privatePort')}
          />
        </SimpleGrid>
      </Collapse>
      <NumberInput
        label={t('nodes.fields.sftpPort')}
        description={outbound ? t('nodes.link.sftpPortHint') : undefined}
        min={1}
        max={65535}
        allowDecimal={false}
        required
        maw={{ sm: '50%' }}
        {...props('sftpPort')}
      />
    </Stack>
  );
}
