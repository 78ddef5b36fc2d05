import type { Template, Variable } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { newVariable } from '../model/variables';
import { ListCard } from './ListCard';
import { useListEditing } from './useListEditing';
import { VariableOverlay } from './VariableOverlay';

export interface NamedVariable {
  name: string;
  variable: Variable;
}

const toList = (data: Template['data']): NamedVariable[] =>
  Object.entries(data).map(([name, variable]) => ({ name, variable }));
const toData = (list: NamedVariable[]): Template['data'] =>
  Object.fromEntries(list.map((entry) => [entry.name, entry.variable]));

/** The Variables card: the template's `data` map as a list, each entry edited in an overlay. */
export function VariablesCard({
  data,
  onChange,
}: {
  data: Template['data'];
  onChange: (d: Template['data']) => void;
}) {
  const { t } = useTranslation();
  const items = toList(data);
  const list = useListEditing(items, (next) => onChange(toData(next)));
  const others = items.filter((_item, i) => i !== list.editing).map((item) => item.name);
  return (
    <ListCard
      title={t('templates.variables.title')}
      testId="variables"
      items={items}
      emptyText={t('templates.variables.empty')}
      addLabel={t('templates.variables.add')}
      describe={(item) => `${item.variable.display || item.name} (${item.name})`}
      onAdd={() => list.add({ name: '', variable: newVariable() })}
      onOpen={list.open}
      onRemove={list.remove}
    >
      {list.current && (
        <VariableOverlay
          key={list.editing}
          entry={list.current}
          takenNames={others}
          onSave={list.save}
          onClose={list.close}
        />
      )}
    </ListCard>
  );
}
