import { SimpleGrid } from '@mantine/core';
import type { Variable, VariableEffect } from '@hearth/contract';
import { VariableInput } from './VariableInput';
import type { VariableValue } from './values';

interface Props {
  data: Record<string, Variable>;
  values: Record<string, VariableValue>;
  onChange: (values: Record<string, VariableValue>) => void;
  errors?: Record<string, string>;
  disabled?: boolean;
  /** Per variable, when a change takes effect (the server's Settings tab; absent when creating a server). */
  effects?: Record<string, VariableEffect[]>;
}

/** The variables of a template or server as a grid of typed inputs. */
export function VariableFields({ data, values, onChange, errors = {}, disabled, effects = {} }: Props) {
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
          effects={effects[name]}
          onChange={(value) => onChange({ ...values, [name]: value })}
        />
      ))}
    </SimpleGrid>
  );
}
