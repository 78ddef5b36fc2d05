import { Button, TextInput, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The e-mail input of the sign-in and new-account forms (browsers fill it from the saved address). */
export function EmailInput(props: TextInputProps) {
  const { t } = useTranslation();
  return <TextInput label={t('fields.email')} type="email" autoComplete="email" {...props} />;
}

/** The full-width submit button at the foot of an auth card's form. */
export function AuthSubmit({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Button type="submit" loading={loading} fullWidth mt="xs">
      {children}
    </Button>
  );
}
