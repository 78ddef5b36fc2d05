import { useTranslation } from 'react-i18next';
import * as rules from './validation';

type FormRule = (value: string) => string | null;

/** The shared field rules (validation.ts) as @mantine/form validators with translated messages. */
export function useValidators() {
  const { t } = useTranslation();
  const wrap =
    (rule: rules.Rule): FormRule =>
    (value) => {
      const key = rule(value);
      return key ? t(key) : null;
    };
  return {
    username: wrap(rules.username),
    password: wrap(rules.password),
    email: wrap(rules.email),
    required: wrap(rules.required),
    confirm: (value: string, values: { newPassword?: string; password?: string }) =>
      wrap(rules.sameAs(values.newPassword ?? values.password ?? ''))(value),
  };
}
