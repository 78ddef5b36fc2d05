import { SimpleGrid } from '@mantine/core';
import type { Variable } from '@hearth/contract';
import { VariableInput } from './VariableInput';
import type { VariableValue } from './values';

interface Props {
  data: Record<string, Variable>;
  values: Record<string, VariableValue>;
  onChange: (values: Record<string, VariableValue>) => void;
  errors?: Record<string, string>;
  disabled?: boolean;
}

/** The variables of a template or server as a grid of typed inputs. */
export function VariableFields({ data, values, onChange, errors = {}, disabled }: Props) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="variable-fields">
      {Object.entries(data).map(([name, variable]) => (
        <VariableInput
          key={name}
          name={name}
          variable={variable}
          value={values[name] ?? ''}
          error={errors[name]}
          disabled={disabled}
          onChange={(value) => onChange({ ...values, [name]: value })}
        />
      ))}
    </SimpleGrid>
  );
}
