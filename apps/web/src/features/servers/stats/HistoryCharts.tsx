import { Center, Loader, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { HistoryRange } from '@hearth/contract';
import { useTranslation } from 'react-i18next';
import { StatChart } from './StatChart';
import { chartsOf, inUnit, maxKnown } from './history-model';
import { serverHistoryQuery } from './history-query';
import { CPU_AXIS_MIN_MAX, memoryAxisMax } from './stats-model';

interface Props {
  serverId: string;
  range: HistoryRange;
  binary: boolean;
}

/** The stored history of one range: CPU, memory, disk and, where the game answers a query, players. */
export function HistoryCharts({ serverId, range, binary }: Props) {
  const { t } = useTranslation();
  const history = useQuery(serverHistoryQuery(serverId, range));
  if (history.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  if (!history.data) {
    return (
      <Text c="dimmed" ta="center" py="lg" data-testid="history-unavailable">
        {t('servers.stats.historyUnavailable')}
      </Text>
    );
  }
  const charts = chartsOf(history.data);
  const unit = binary ? 'MiB' : 'MB';
  const memory = inUnit(charts.memory, binary);
  const disk = inUnit(charts.disk, binary);
  const common = { times: charts.times, longRange: range === '7d' || range === '30d' };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="history-charts" data-range={range}>
      <StatChart
        {...common}
        title={t('servers.stats.cpu')}
        values={charts.cpu}
        yMax={Math.max(CPU_AXIS_MIN_MAX, maxKnown(charts.cpu))}
        unit="%"
        color="#228be6"
        testId="history-cpu-chart"
      />
      <StatChart
        {...common}
        title={t('servers.stats.memory')}
        values={memory}
        yMax={memoryAxisMax(memory)}
        unit={unit}
        color="#40c057"
        testId="history-memory-chart"
      />
      <StatChart
        {...common}
        title={t('servers.stats.disk')}
        values={disk}
        yMax={memoryAxisMax(disk)}
        unit={unit}
        color="#fab005"
        testId="history-disk-chart"
      />
      {charts.maxPlayers > 0 && (
        <StatChart
          {...common}
          title={t('servers.stats.players')}
          values={charts.players}
          yMax={Math.max(charts.maxPlayers, maxKnown(charts.players))}
          unit=""
          color="#be4bdb"
          testId="history-players-chart"
        />
      )}
    </SimpleGrid>
  );
}
