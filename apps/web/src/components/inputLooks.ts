import type { InputVariant } from '@mantine/core';

/** The input looks (Vuetify names) mapped onto Mantine variants and a few styles. */
export const inputLooks = ['outlined', 'solo', 'solo-flat', 'filled', 'material'] as const;
export type InputLook = (typeof inputLooks)[number];

export interface LookProps {
  variant: InputVariant;
  styles?: { input: Record<string, string | number> };
}

export function lookProps(look: InputLook = 'outlined'): LookProps {
  switch (look) {
    case 'filled':
      return { variant: 'filled' };
    case 'solo':
      return { variant: 'default', styles: { input: { boxShadow: 'var(--mantine-shadow-sm)' } } };
    case 'solo-flat':
      return { variant: 'filled', styles: { input: { border: 0 } } };
    case 'material':
      return {
        variant: 'unstyled',
        styles: { input: { borderBottom: '1px solid var(--mantine-color-default-border)', borderRadius: 0 } },
      };
    case 'outlined':
      return { variant: 'default' };
  }
}
