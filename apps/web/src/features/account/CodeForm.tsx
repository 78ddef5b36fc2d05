import { Button, Group, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface CodeFormProps {
  submitLabel: string;
  loading: boolean;
  color?: string;
  onSubmit: (code: string) => void;
}

/** One authentication-code input with its button; Enter submits. */
export function CodeForm({ submitLabel, loading, color, onSubmit }: CodeFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) onSubmit(code.trim());
  };
  return (
    <form onSubmit={submit} style={{ width: '100%' }}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('login.otp.code')}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          data-testid="otp-code"
        />
        <Button type="submit" color={color} loading={loading} disabled={!code.trim()}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
