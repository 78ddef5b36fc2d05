import { Card, Group, SegmentedControl, SimpleGrid, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format';
import type { ServerTabProps } from '../tabs/types';
import type { ServerLiveAction } from '../useServerLive';
import { HistoryCharts } from './HistoryCharts';
import { isHistoryRange, statsRanges, type StatsRange } from './history-model';
import { StatChart } from './StatChart';
import {
  cpuAxisMax,
  latest,
  memoryAxisMax,
  memoryInUnit,
  pushPoint,
  seedHistory,
  STATS_INTERVAL_MS,
  type StatsHistory,
} from './stats-model';

/**
 * Statistics tab: the current CPU and memory use in figures, then charts of the latest 40 points, memory in MB or
 * MiB; beside
 * them the node's stored history in ranges of 1 h, 24 h, 7 d and 30 d (CPU, memory, disk, players where known).
 */
export default function StatsTab({ live, server }: ServerTabProps) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<StatsRange>('live');
  const [history, setHistory] = useState<StatsHistory>(() => seedHistory(Date.now()));
  const [binary, setBinary] = useState(false);
  const { stats } = live;
  const sendRef = useRef((message: ServerLiveAction) => live.send(message));
  sendRef.current = (message) => live.send(message);

  useEffect(() => {
    const ask = () => void sendRef.current({ type: 'stat' }).catch(() => undefined);
    ask();
    const timer = setInterval(ask, STATS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []); // `send` changes every render; the ref keeps one steady 3000 ms interval

  useEffect(() => {
    if (stats) setHistory((h) => pushPoint(h, Date.now(), stats.cpu, stats.memory));
  }, [stats]);

  const memory = history.memory.map((bytes) => (bytes === null ? null : memoryInUnit(bytes, binary)));
  const memoryUnit = binary ? 'MiB' : 'MB';
  const now = (value: number | null, unit: string) =>
    value === null ? '–' : `${formatNumber(value, i18n.language)} ${unit}`;
  return (
    <Card withBorder radius="md" padding="md" data-testid="stats-tab">
      <Group justify="space-between" mb="sm" gap="xs">
        <Text fw={600}>{t('servers.stats.title')}</Text>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(v) => setRange(statsRanges.find((r) => r === v) ?? 'live')}
          data={statsRanges.map((r) => ({ value: r, label: t(`servers.stats.ranges.${r}`) }))}
          aria-label={t('servers.stats.range')}
          data-testid="stats-range"
        />
        <SegmentedControl
          size="xs"
          value={binary ? 'binary' : 'decimal'}
          onChange={(v) => setBinary(v === 'binary')}
          data={[
            { value: 'decimal', label: 'MB' },
            { value: 'binary', label: 'MiB' },
          ]}
          aria-label={t('servers.stats.memoryUnit')}
          data-testid="memory-unit"
        />
      </Group>
      <Group gap="xl" mb="sm" data-testid="stats-current">
        <CurrentValue
          label={t('servers.stats.cpu')}
          value={now(latest(history.cpu), '%')}
          testId="stats-current-cpu"
        />
        <CurrentValue
          label={t('servers.stats.memory')}
          value={now(latest(memory), memoryUnit)}
          testId="stats-current-memory"
        />
      </Group>
      {isHistoryRange(range) && <HistoryCharts serverId={server.id} range={range} binary={binary} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} display={range === 'live' ? undefined : 'none'}>
        <StatChart
          title={t('servers.stats.cpu')}
          times={history.times}
          values={history.cpu}
          yMax={cpuAxisMax(history.cpu)}
          unit="%"
          color="#228be6"
          testId="cpu-chart"
        />
        <StatChart
          title={t('servers.stats.memory')}
          times={history.times}
          values={memory}
          yMax={memoryAxisMax(memory)}
          unit={memoryUnit}
          color="#40c057"
          testId="memory-chart"
        />
      </SimpleGrid>
    </Card>
  );
}

/** One current figure: a small label over the value (the newest sample of the socket's `stat`). */
function CurrentValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
