import { Select, type SelectProps } from '@mantine/core';
import { lookProps, type InputLook } from './inputLooks';

export interface SelectFieldProps<T extends string> extends Omit<
  SelectProps,
  'value' | 'onChange' | 'data' | 'variant'
> {
  value: T;
  onChange: (value: T) => void;
  data: readonly { value: T; label: string }[] | readonly T[];
  look?: InputLook;
}

/** A select that always has a value (no deselect) and gives back the option's own string type. */
export function SelectField<T extends string>({ value, onChange, data, look, ...rest }: SelectFieldProps<T>) {
  return (
    <Select
      {...lookProps(look)}
      {...rest}
      data={data as SelectProps['data']}
      value={value}
      allowDeselect={false}
      onChange={(next) => {
        if (next !== null) onChange(next as T);
      }}
    />
  );
}
