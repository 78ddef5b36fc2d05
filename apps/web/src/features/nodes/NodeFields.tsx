import { Collapse, NumberInput, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { NodeFormValues } from './nodeForm';

/** Name, public address, optional separate private address, SFTP port. */
export function NodeFields({ form }: { form: UseFormReturnType<NodeFormValues> }) {
  const { t } = useTranslation();
  const props = (key: keyof NodeFormValues) => {
    const error = form.errors[key];
    return { ...form.getInputProps(key), error: typeof error === 'string' ? t(error) : undefined };
  };
  const separate = form.getValues().separatePrivate;
  return (
    <Stack>
      <TextInput label={t('fields.name')} required {...props('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('nodes.fields.publicHost')}
          description={t('nodes.fields.publicHostHint')}
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
