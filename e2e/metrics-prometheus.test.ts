/**
 * Debian's Prometheus scraping a real panel and a real daemon (docs/daemon.md § Metrics, docs/configuration.md
 * § Metrics), asked through its HTTP API for Hearth series: the running server's state and memory from the
 * daemon, the panel's request counts by route pattern and its node's link state. A scrape job with a wrong token
 * is refused by both (its `up` is 0): the token is what opens /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/daemon/test/helpers/poll';
import { addNodeWithDaemon, createFakeGameServer, type NodeDaemon } from './helpers/daemon-node';
import { startMetricsPanel } from './helpers/metrics-panel';
import { createFirstAdmin, panelApi, type Account, type TestPanel } from './helpers/panel';
import { prometheusAvailable, startPrometheus, type RunningPrometheus } from './helpers/prometheus';

const PANEL_TOKEN = 'panel-scrape-token-e2e';
const NODE_TOKEN = 'node-scrape-token-e2e';

describe.skipIf(!prometheusAvailable())('Prometheus scrapes the panel and a daemon', () => {
  let panel: TestPanel;
  let admin: Account;
  let node: NodeDaemon & { nodeId: string };
  let serverId: string;
  let prometheus: RunningPrometheus;

  beforeAll(async () => {
    panel = await startMetricsPanel({ enabled: true, token: PANEL_TOKEN });
    admin = await createFirstAdmin(panel);
    node = await addNodeWithDaemon(panel, admin.session, 'scraped', {
      metrics: { enabled: true, token: NODE_TOKEN },
      stats: { sampleIntervalMs: 500 },
    });
    serverId = await createFakeGameServer({ panel, admin, nodeId: node.nodeId }, 'scraped-game', {
      start: true,
    });
    const panelTarget = new URL(panel.url).host;
    const daemonTarget = `127.0.0.1:${node.daemon.port}`;
    // The node serves HTTPS with the certificate its deployment carries: Prometheus trusts exactly that one.
    const deployment = `/api/nodes/${node.nodeId}/deployment`;
    const { config } = await panelApi<{ config: { tls: { certPem: string } } }>(
      panel,
      admin.session,
      'GET',
      deployment,
    );
    const caPem = config.tls.certPem;
    prometheus = await startPrometheus([
      { job: 'hearth-panel', target: panelTarget, token: PANEL_TOKEN },
      { job: 'hearth-daemon', target: daemonTarget, token: NODE_TOKEN, caPem },
      { job: 'wrong-panel-token', target: panelTarget, token: NODE_TOKEN },
      { job: 'no-daemon-token', target: daemonTarget, caPem },
    ]);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await node?.daemon.close();
    await panel?.stop();
  });

  /** The value of the one series a query returns, once Prometheus has it. */
  const valueOf = (promql: string) =>
    waitFor(async () => (await prometheus.query(promql))[0], `Prometheus to answer ${promql}`, {
      timeoutMs: 60_000,
      intervalMs: 500,
    }).then(
      (sample) => sample.value,
      async (err: unknown) => {
        const targets = await (await fetch(`${prometheus.url}/api/v1/targets`)).text();
        throw new Error(`${String(err)}; targets: ${targets}`);
      },
    );

  it('has the daemon’s series of the running server', async () => {
    expect(
      await valueOf(`hearth_server_state{job="hearth-daemon",server="${serverId}",state="running"}`),
    ).toBe(1);
    expect(
      await valueOf(`hearth_server_memory_bytes{job="hearth-daemon",server="${serverId}"} > 0`),
    ).toBeGreaterThan(0);
    expect(await valueOf(`hearth_daemon_servers{job="hearth-daemon"}`)).toBe(1);
  });

  it('has the panel’s request counts by route pattern and the node’s link state', async () => {
    await panelApi(panel, admin.session, 'GET', `/api/servers/${serverId}`);
    const route =
      'hearth_panel_http_requests_total{job="hearth-panel",route="/api/servers/:id",method="GET"}';
    expect(await valueOf(route)).toBeGreaterThanOrEqual(1);
    expect(
      await valueOf(`hearth_panel_node_status{job="hearth-panel",node="${node.nodeId}",state="online"} == 1`),
    ).toBe(1);
  });

  it('sees the scrapes without the right token refused (up = 0)', async () => {
    expect(await valueOf('up{job="hearth-panel"}')).toBe(1);
    expect(await valueOf('up{job="hearth-daemon"}')).toBe(1);
    expect(await valueOf('up{job="wrong-panel-token"}')).toBe(0);
    expect(await valueOf('up{job="no-daemon-token"}')).toBe(0);
    const targets = (await (await fetch(`${prometheus.url}/api/v1/targets`)).json()) as {
      data: { activeTargets: Array<{ labels: { job: string }; lastError: string }> };
    };
    const refused = targets.data.activeTargets.filter(
      (t) => t.labels.job !== 'hearth-panel' && t.labels.job !== 'hearth-daemon',
    );
    for (const target of refused) expect(target.lastError, target.labels.job).toContain('401');
  });
});
