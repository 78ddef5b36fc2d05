import { Checkbox, Group, NumberInput, Stack, Tabs, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  cronModes,
  switchMode,
  toExpression,
  toggleWeekday,
  type CronMode,
  type CronState,
  type CronValue,
} from './cron-model';

interface Props {
  state: CronState;
  onChange: (state: CronState, expression: string) => void;
}

/** Schedule editor: tabs Hourly, Daily, Weekly, Monthly, Advanced; the parent keeps the state. */
export function CronEditor({ state, onChange }: Props) {
  const { t } = useTranslation();
  const set = (next: CronState) => onChange(next, toExpression(next));
  const num = (key: 'minute' | 'hour' | 'day' | 'month', label: string, min: number, max: number) => (
    <NumberInput
      label={label}
      min={min}
      max={max}
      value={state[key] === '*' ? '' : state[key]}
      onChange={(v) => set({ ...state, [key]: clamp(v, min, max) })}
      data-testid={`cron-${key}`}
      w={140}
    />
  );
  const time = (
    <Group>
      {num('hour', t('cron.hour'), 0, 23)}
      {num('minute', t('cron.minute'), 0, 59)}
    </Group>
  );
  return (
    <Tabs value={state.mode} onChange={(mode) => mode && set(switchMode(state, mode as CronMode))}>
      <Tabs.List>
        {cronModes.map((mode) => (
          <Tabs.Tab key={mode} value={mode} data-testid={`cron-tab-${mode}`}>
            {t(`cron.modes.${mode}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Stack pt="sm">
        {state.mode === 'hourly' && (
          <Group>
            {num('hour', t('cron.everyHours'), 1, 23)}
            {num('minute', t('cron.minute'), 0, 59)}
          </Group>
        )}
        {state.mode === 'daily' && (
          <>
            {num('day', t('cron.everyDays'), 1, 31)}
            {time}
          </>
        )}
        {state.mode === 'weekly' && (
          <>
            <Group gap="xs" data-testid="cron-weekdays">
              {(t('cron.weekdayNames', { returnObjects: true }) as string[]).map((name, day) => (
                <Checkbox
                  key={name}
                  label={name}
                  checked={state.weekdays.includes(day)}
                  onChange={() => set(toggleWeekday(state, day))}
                  data-testid={`cron-weekday-${day}`}
                />
              ))}
            </Group>
            {time}
          </>
        )}
        {state.mode === 'monthly' && (
          <>
            <Group>
              {num('month', t('cron.everyMonths'), 1, 12)}
              {num('day', t('cron.day'), 1, 31)}
            </Group>
            {time}
          </>
        )}
        {state.mode === 'advanced' && (
          <TextInput
            label={t('cron.expression')}
            value={state.expression}
            onChange={(e) => set({ ...state, expression: e.currentTarget.value })}
            data-testid="cron-expression"
          />
        )}
      </Stack>
    </Tabs>
  );
}

function clamp(value: string | number, min: number, max: number): CronValue {
  const n = typeof value === 'number' ? value : Number.parseInt(value, 10);
  if (!Number.isFinite(n)) return min;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}
