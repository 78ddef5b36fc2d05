import { Alert, SimpleGrid, Stack } from '@mantine/core';
import type { Processor, RunSection, Template } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { unknownProcessorNames } from '../model/processors';
import { EnvironmentsCard } from './EnvironmentsCard';
import { GeneralCard } from './GeneralCard';
import { ProcessorsCard } from './ProcessorsCard';
import { EnvironmentVarsCard, RunCard, ShutdownCard } from './RunCards';
import { VariablesCard } from './VariablesCard';

interface Props {
  template: Template;
  onChange: (template: Template) => void;
  nameLocked: boolean;
  nameError: string | null;
  /** Editing a server's definition: GeneralCard shows this id and names `name` the server's name. */
  serverId?: string;
}

/** The editor view: General, Variables, Install, Run Configuration, Shutdown, hooks, env vars, environments. */
export function EditorCards({ template, onChange, nameLocked, nameError, serverId }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<Template>) => onChange({ ...template, ...patch });
  const setRun = (run: RunSection) => set({ run });
  const hook = (key: 'pre' | 'post') => (steps: Processor[]) => setRun({ ...template.run, [key]: steps });
  const unknown = unknownProcessorNames(template);
  return (
    <Stack>
      {unknown.length > 0 && (
        <Alert color="yellow" data-testid="unknown-processors">
          {t('templates.warnings.unknownProcessor', { names: unknown.join(', ') })}
        </Alert>
      )}
      <GeneralCard
        template={template}
        onChange={onChange}
        nameLocked={nameLocked}
        nameError={nameError}
        serverId={serverId}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <VariablesCard data={template.data} onChange={(data) => set({ data })} />
        <ProcessorsCard
          title={t('templates.processors.install')}
          testId="install"
          steps={template.install}
          onChange={(install) => set({ install })}
        />
        <RunCard run={template.run} onChange={setRun} />
        <ShutdownCard run={template.run} onChange={setRun} />
        <ProcessorsCard
          title={t('templates.processors.pre')}
          testId="pre"
          steps={template.run.pre}
          onChange={hook('pre')}
        />
        <ProcessorsCard
          title={t('templates.processors.post')}
          testId="post"
          steps={template.run.post}
          onChange={hook('post')}
        />
        <EnvironmentVarsCard run={template.run} onChange={setRun} />
        <EnvironmentsCard value={template} onChange={(envs) => set(envs)} />
      </SimpleGrid>
    </Stack>
  );
}
