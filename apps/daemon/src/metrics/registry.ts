/**
 * The daemon's Prometheus metrics (docs/daemon.md § Metrics; names used by docs/grafana/hearth.json). Per server
 * series are labelled `server` (the id); their values are read at scrape time from the sampler's latest samples
 * and the servers' own counters, so a scrape costs a pass over the servers in memory and nothing more. Process
 * metrics (CPU, memory, event-loop lag, handles) come from prom-client's default collectors.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Server } from '../server/server';
import type { Sampler } from './sampler';

function stateOf(server: Server): 'running' | 'installing' | 'stopped' {
  if (server.installing) return 'installing';
  return server.isRunning() ? 'running' : 'stopped';
}

export function daemonRegistry(servers: () => Server[], sampler: Sampler, nodeId: string): Registry {
  const registry = new Registry();
  // The node is the scrape target (Prometheus's `instance`); its id is one series, not a label on every one.
  new Gauge({
    name: 'hearth_daemon_info',
    help: 'This node: its id as the panel knows it.',
    labelNames: ['node'],
    registers: [registry],
  }).set({ node: nodeId }, 1);
  collectDefaultMetrics({ register: registry, prefix: 'hearth_daemon_' });
  const gauge = (name: string, help: string, read: (server: Server) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset();
        for (const server of servers()) {
          const value = read(server);
          if (value !== null) this.set({ server: server.id }, value);
        }
      },
    });
  const counter = (name: string, help: string, read: (server: Server) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset();
        for (const server of servers()) this.inc({ server: server.id }, read(server));
      },
    });

  // One series per server, for the state it is in (1): a scrape of 200 servers stays at 200 series, not 600.
  new Gauge({
    name: 'hearth_server_state',
    help: 'The server’s state (running, installing, stopped): 1 on the series of the state it is in.',
    labelNames: ['server', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const server of servers()) this.set({ server: server.id, state: stateOf(server) }, 1);
    },
  });
  gauge('hearth_server_cpu_percent', 'CPU of the server’s processes, percent of one core.', (s) =>
    s.isRunning() ? (sampler.sampleOf(s.id)?.cpu ?? 0) : 0,
  );
  gauge('hearth_server_memory_bytes', 'Resident memory of the server’s processes.', (s) =>
    s.isRunning() ? (sampler.sampleOf(s.id)?.memory ?? 0) : 0,
  );
  gauge(
    'hearth_server_disk_bytes',
    'Disk space the server’s folder takes (measured in the background).',
    (s) => sampler.sampleOf(s.id)?.disk ?? null,
  );
  gauge('hearth_server_players', 'Players online, where the game answers a query.', (s) =>
    s.players && s.isRunning() ? s.players.online : null,
  );
  gauge('hearth_server_players_max', 'Player slots, where the game answers a query.', (s) =>
    s.players && s.isRunning() ? s.players.max : null,
  );
  gauge('hearth_server_uptime_seconds', 'Seconds since the running server started; 0 when stopped.', (s) =>
    s.isRunning() && s.startedAt > 0 ? Math.max(0, (Date.now() - s.startedAt) / 1000) : 0,
  );
  counter('hearth_server_restarts_total', 'Automatic restarts after a crash.', (s) => s.counters.restarts);
  counter('hearth_server_console_lines_total', 'Console lines written.', (s) => s.counters.consoleLines);
  counter(
    'hearth_server_console_dropped_bytes_total',
    'Console output dropped for slow subscribers.',
    (s) => s.fanout.droppedBytes,
  );
  new Gauge({
    name: 'hearth_daemon_servers',
    help: 'Servers defined on this node.',
    registers: [registry],
    collect() {
      this.set(servers().length);
    },
  });
  return registry;
}
