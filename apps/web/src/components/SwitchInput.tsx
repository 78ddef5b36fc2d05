import { Switch, type SwitchProps } from '@mantine/core';

export interface SwitchInputProps extends Omit<SwitchProps, 'checked' | 'onChange'> {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled on/off switch giving back a boolean. */
export function SwitchInput({ checked, onChange, ...rest }: SwitchInputProps) {
  return <Switch {...rest} checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />;
}
