/**
 * CPU % and memory from the engine's stats API (one-shot samples; CPU is computed between two of our calls,
 * like the process environments do, so a call never blocks for the engine's own one-second window).
 */
import type Docker from 'dockerode';
import type { ProcessStats } from '../environment';

interface EngineStats {
  cpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number; online_cpus?: number };
  memory_stats?: {
    usage?: number;
    stats?: { cache?: number; inactive_file?: number; total_inactive_file?: number };
  };
}

export interface CpuSample {
  total: number;
  system: number;
  cpus: number;
}

function sampleOf(stats: EngineStats): CpuSample {
  const cpu = stats.cpu_stats ?? {};
  return {
    total: cpu.cpu_usage?.total_usage ?? 0,
    system: cpu.system_cpu_usage ?? 0,
    cpus: cpu.online_cpus ?? 1,
  };
}

/** Usage minus page cache, as `docker stats` shows it (cgroup v1 `cache`, v2 `inactive_file`). */
function memoryOf(stats: EngineStats): number {
  const m = stats.memory_stats ?? {};
  const cache = m.stats?.total_inactive_file ?? m.stats?.inactive_file ?? m.stats?.cache ?? 0;
  return Math.max(0, (m.usage ?? 0) - cache);
}

/** Percent of one core between two samples (can exceed 100 with several cores). */
export function cpuPercentOf(previous: CpuSample | null, current: CpuSample): number {
  if (!previous) return 0;
  const used = current.total - previous.total;
  const system = current.system - previous.system;
  if (used <= 0 || system <= 0) return 0;
  return Math.round((used / system) * current.cpus * 10000) / 100;
}

export async function containerStats(
  container: Docker.Container,
  previous: CpuSample | null,
): Promise<{ stats: ProcessStats; sample: CpuSample }> {
  const raw = (await container.stats({ stream: false, 'one-shot': true } as {
    stream: false;
  })) as EngineStats;
  const sample = sampleOf(raw);
  return { stats: { cpu: cpuPercentOf(previous, sample), memory: memoryOf(raw) }, sample };
}
