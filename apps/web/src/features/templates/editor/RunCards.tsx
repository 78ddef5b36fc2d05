import { Card, NumberInput, SegmentedControl, Stack, Title } from '@mantine/core';
import type { RunSection } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { KeyValueEditor } from '../../../components/KeyValueEditor';
import { StringListEditor } from '../../../components/StringListEditor';
import { SwitchInput } from '../../../components/SwitchInput';
import { TextField } from '../../../components/TextField';
import { argumentsOf, shutdownKind, withArguments, withShutdown } from '../model/run';

interface Props {
  run: RunSection;
  onChange: (run: RunSection) => void;
}

/** Run Configuration: command line (also shown as its argument list), working directory, auto switches. */
export function RunCard({ run, onChange }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<RunSection>) => onChange({ ...run, ...patch });
  return (
    <Card withBorder radius="md" padding="lg" data-testid="run">
      <Stack gap="sm">
        <Title order={4}>{t('templates.run.title')}</Title>
        <TextField
          label={t('templates.run.command')}
          value={run.command}
          onChange={(command) => set({ command })}
        />
        <TextField
          label={t('templates.run.workingDirectory')}
          value={run.workingDirectory}
          onChange={(workingDirectory) => set({ workingDirectory })}
        />
        <StringListEditor
          label={t('templates.run.arguments')}
          value={argumentsOf(run.command)}
          onChange={(args) => set({ command: withArguments(run.command, args) })}
          addLabel={t('templates.widgets.add')}
          removeLabel={t('templates.widgets.remove')}
        />
        {(['autostart', 'autorestart', 'autorecover'] as const).map((flag) => (
          <SwitchInput
            key={flag}
            label={t(`templates.run.${flag}`)}
            checked={run[flag]}
            onChange={(on) => set({ [flag]: on })}
          />
        ))}
      </Stack>
    </Card>
  );
}

/** Shutdown: console text or a signal number. */
export function ShutdownCard({ run, onChange }: Props) {
  const { t } = useTranslation();
  const kind = shutdownKind(run);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="shutdown">
      <Stack gap="sm">
        <Title order={4}>{t('templates.shutdown.title')}</Title>
        <SegmentedControl
          value={kind}
          data={(['command', 'signal'] as const).map((k) => ({
            value: k,
            label: t(`templates.shutdown.kind.${k}`),
          }))}
          onChange={(next) => onChange(withShutdown(run, next, next === 'signal' ? 15 : 'stop'))}
        />
        {kind === 'signal' ? (
          <NumberInput
            label={t('templates.shutdown.signal')}
            min={1}
            max={64}
            allowDecimal={false}
            value={run.stopCode ?? 15}
            onChange={(v) =>
              onChange(withShutdown(run, 'signal', typeof v === 'number' ? v : Number(v) || 15))
            }
          />
        ) : (
          <TextField
            label={t('templates.shutdown.command')}
            value={run.stop ?? ''}
            onChange={(stop) => onChange(withShutdown(run, 'command', stop))}
          />
        )}
      </Stack>
    </Card>
  );
}

export function EnvironmentVarsCard({ run, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Title order={4}>{t('templates.envVars.title')}</Title>
        <KeyValueEditor
          testId="env-vars"
          value={run.environmentVars}
          onChange={(environmentVars) => onChange({ ...run, environmentVars })}
          keyLabel={t('templates.envVars.key')}
          valueLabel={t('templates.envVars.value')}
          addLabel={t('templates.widgets.add')}
          removeLabel={t('templates.widgets.remove')}
        />
      </Stack>
    </Card>
  );
}
