import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { AuthSubmit, EmailInput } from './AuthFields';
import { useValidators } from './useValidators';

export interface NewAccountValues {
  username: string;
  email: string;
  password: string;
}

interface NewAccountFormProps {
  submitLabel: string;
  loading: boolean;
  /** Invitations already know the e-mail address. */
  withEmail?: boolean;
  onSubmit: (values: NewAccountValues) => void;
}

/** Username, e-mail, password and confirmation with the shared field rules: register, setup and invite share it. */
export function NewAccountForm({ submitLabel, loading, withEmail = true, onSubmit }: NewAccountFormProps) {
  const { t } = useTranslation();
  const v = useValidators();
  const form = useForm({
    initialValues: { username: '', email: '', password: '', confirm: '' },
    validate: {
      username: v.username,
      email: withEmail ? v.email : () => null,
      password: v.password,
      confirm: v.confirm,
    },
  });
  return (
    <form
      onSubmit={form.onSubmit(({ username, email, password }) => onSubmit({ username, email, password }))}
    >
      <Stack>
        <TextInput label={t('fields.username')} autoComplete="username" {...form.getInputProps('username')} />
        {withEmail && <EmailInput {...form.getInputProps('email')} />}
        <PasswordInput
          label={t('fields.password')}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('fields.confirmPassword')}
          autoComplete="new-password"
          {...form.getInputProps('confirm')}
        />
        <AuthSubmit loading={loading}>{submitLabel}</AuthSubmit>
      </Stack>
    </form>
  );
}
