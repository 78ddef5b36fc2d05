import { Stack, Text } from '@mantine/core';
import { networkModes, type Environment, type EnvironmentType } from '@hearth/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyValueEditor } from '../../../components/KeyValueEditor';
import { SelectField } from '../../../components/SelectField';
import { StringListEditor } from '../../../components/StringListEditor';
import { TextField } from '../../../components/TextField';
import { environmentTypes, newEnvironment } from '../model/environments';
import { EntryOverlay } from './EntryOverlay';

interface Props {
  entry: Environment;
  allowedTypes: readonly EnvironmentType[];
  /** Returns false when the list refuses the entry (its type is taken). */
  onSave: (entry: Environment) => boolean;
  onClose: () => void;
}

type Docker = Extract<Environment, { type: 'docker' }>;
type NetworkMode = Docker['networkMode'];

export function EnvironmentOverlay({ entry, allowedTypes, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Environment>(entry);
  const [error, setError] = useState<string | null>(null);
  const types = environmentTypes.filter((type) => allowedTypes.includes(type));
  const save = () => {
    if (!onSave(draft)) setError(t('templates.environments.clash', { type: draft.type }));
  };
  return (
    <EntryOverlay title={t('templates.environments.edit')} onClose={onClose} onSave={save}>
      <SelectField<EnvironmentType>
        label={t('templates.environments.type')}
        value={draft.type}
        data={types.map((type) => ({ value: type, label: t(`templates.environments.types.${type}`) }))}
        onChange={(type) => setDraft(type === entry.type ? entry : newEnvironment(type))}
      />
      {draft.type === 'docker' && <DockerFields env={draft} onChange={setDraft} />}
      {error && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
    </EntryOverlay>
  );
}

/** Docker: image, network mode (default host) and name, bindings map, port bindings as text. */
function DockerFields({ env, onChange }: { env: Docker; onChange: (env: Docker) => void }) {
  const { t } = useTranslation();
  const set = (patch: Partial<Docker>) => onChange({ ...env, ...patch });
  const add = t('templates.widgets.add');
  const remove = t('templates.widgets.remove');
  return (
    <Stack gap="sm" data-testid="docker-fields">
      <TextField
        label={t('templates.environments.image')}
        value={env.image}
        onChange={(image) => set({ image })}
      />
      <SelectField<NetworkMode>
        label={t('templates.environments.networkMode')}
        value={env.networkMode}
        data={networkModes}
        onChange={(networkMode) => set({ networkMode })}
      />
      <TextField
        label={t('templates.environments.networkName')}
        value={env.networkName ?? ''}
        onChange={(networkName) => set({ networkName: networkName === '' ? undefined : networkName })}
      />
      <KeyValueEditor
        label={t('templates.environments.bindings')}
        value={env.bindings}
        onChange={(bindings) => set({ bindings })}
        keyLabel={t('templates.environments.hostPath')}
        valueLabel={t('templates.environments.containerPath')}
        addLabel={add}
        removeLabel={remove}
      />
      <StringListEditor
        label={t('templates.environments.portBindings')}
        placeholder={t('templates.environments.portBindingHint')}
        value={env.portBindings}
        onChange={(portBindings) => set({ portBindings })}
        addLabel={add}
        removeLabel={remove}
      />
    </Stack>
  );
}
