import { Text } from '@mantine/core';
import type { Environment, EnvironmentType, Template } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/SelectField';
import {
  canAdd,
  newEnvironment,
  rematchDefault,
  removeEnvironment,
  saveEnvironment,
  unusedTypes,
} from '../model/environments';
import { EnvironmentOverlay } from './EnvironmentOverlay';
import { ListCard } from './ListCard';

type Envs = Pick<Template, 'environment' | 'supportedEnvironments'>;

/**
 * Environment(s): each type at most once, add only while a type is unused; a new entry exists only once
 * saved (closing its overlay leaves the list as it was). The default is re-matched by type on each change.
 */
export function EnvironmentsCard({ value, onChange }: { value: Envs; onChange: (v: Envs) => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ entry: Environment; index?: number } | null>(null);
  const list = value.supportedEnvironments;
  const update = (next: Environment[]) =>
    onChange({ supportedEnvironments: next, environment: rematchDefault(value.environment, next) });
  const save = (entry: Environment) => {
    const next = saveEnvironment(list, entry, editing?.index);
    if (!next) return false;
    update(next);
    setEditing(null);
    return true;
  };
  const typeLabel = (type: EnvironmentType) => t(`templates.environments.types.${type}`);
  const firstUnused = unusedTypes(list)[0];
  return (
    <ListCard
      title={t('templates.environments.title')}
      testId="environments"
      items={list}
      emptyText={t('templates.environments.empty')}
      addLabel={t('templates.environments.add')}
      addDisabled={!canAdd(list)}
      describe={(env) => typeLabel(env.type)}
      onAdd={() => firstUnused && setEditing({ entry: newEnvironment(firstUnused) })}
      onOpen={(index) => setEditing({ entry: list[index] ?? newEnvironment('standard'), index })}
      onRemove={(index) => update(removeEnvironment(list, index))}
    >
      {!canAdd(list) && (
        <Text size="xs" c="dimmed">
          {t('templates.environments.allUsed')}
        </Text>
      )}
      {list.length > 0 && (
        <SelectField<EnvironmentType>
          label={t('templates.environments.default')}
          value={rematchDefault(value.environment, list).type}
          data={list.map((env) => ({ value: env.type, label: typeLabel(env.type) }))}
          onChange={(type) =>
            onChange({ ...value, environment: list.find((env) => env.type === type) ?? value.environment })
          }
        />
      )}
      {editing && (
        <EnvironmentOverlay
          entry={editing.entry}
          allowedTypes={[...unusedTypes(list), ...(editing.index !== undefined ? [editing.entry.type] : [])]}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
    </ListCard>
  );
}
