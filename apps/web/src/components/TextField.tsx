import { TextInput, type TextInputProps } from '@mantine/core';
import { lookProps, type InputLook } from './inputLooks';

export interface TextFieldProps extends Omit<TextInputProps, 'value' | 'onChange' | 'variant'> {
  value: string;
  onChange: (value: string) => void;
  look?: InputLook;
}

/** A text input taking and giving plain strings, in one of the looks. */
export function TextField({ value, onChange, look, ...rest }: TextFieldProps) {
  return (
    <TextInput
      {...lookProps(look)}
      {...rest}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
