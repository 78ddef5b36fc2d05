/**
 * Cached node reachability and features (Add Server). Lists read the cache and never wait
 * on the network: a stale entry is refreshed in the background, a node never probed shows `unknown` until it
 * answers; only one server's detail waits for a first probe, at most `FIRST_PROBE_WAIT_MS`. The probe is `GET /daemon/features` (node-admin token)
 * with a short timeout, so it also yields what the node can run.
 */
import { DAEMON_TOKEN_ANY_SERVER, isAppError, type DaemonFeatures } from '@hearth/contract';
import type { NodeLink } from './node-link';

export type NodeStatus = 'online' | 'offline' | 'unknown';

/** Told when a probe finds a known node's reachability changed (the activity log records it). */
export type NodeStatusListener = (nodeId: string, status: 'online' | 'offline') => void;

interface Entry {
  status: NodeStatus;
  features?: DaemonFeatures;
  at: number;
  probing?: Promise<void>;
}

const FRESH_MS = 5_000;
const FIRST_PROBE_WAIT_MS = 250;
const PROBE_TIMEOUTS = { connectMs: 1_000, responseMs: 2_000 };
const PROBE_GRANT = { sub: 'panel', server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true };

export class NodeStatusCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly link: NodeLink,
    private readonly onChange: NodeStatusListener = () => undefined,
  ) {}

  /**
   * The statuses of these nodes, from the cache (stale ones refresh in the background). Lists never await the
   * network: a node never probed is `unknown` until its first answer. `waitFirstProbe` (one server's detail)
   * waits for that first answer, at most FIRST_PROBE_WAIT_MS.
   */
  async statuses(nodeIds: Iterable<string>, waitFirstProbe = false): Promise<Map<string, NodeStatus>> {
    const waits: Array<Promise<void>> = [];
    for (const id of new Set(nodeIds)) {
      const entry = this.entries.get(id);
      if (!entry || Date.now() - entry.at > FRESH_MS) {
        const probing = this.probe(id);
        if (waitFirstProbe && (!entry || entry.at === 0)) waits.push(probing);
      }
    }
    if (waits.length > 0) {
      await Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, FIRST_PROBE_WAIT_MS))]);
    }
    const out = new Map<string, NodeStatus>();
    for (const id of nodeIds) out.set(id, this.entries.get(id)?.status ?? 'unknown');
    return out;
  }

  /** The node's last known features (probing it if stale, waiting as `statuses` does); undefined = unknown. */
  async knownFeatures(nodeId: string): Promise<DaemonFeatures | undefined> {
    const status = (await this.statuses([nodeId], true)).get(nodeId);
    return status === 'online' ? this.entries.get(nodeId)?.features : undefined;
  }

  /** A node's features, asked now (the Add Server screen); an unreachable node → ErrNodeOffline. */
  async features(nodeId: string): Promise<DaemonFeatures> {
    const features = await this.link.json<DaemonFeatures>(nodeId, PROBE_GRANT, {
      method: 'GET',
      path: '/daemon/features',
    });
    this.settle(nodeId, { status: 'online', features, at: Date.now() });
    return features;
  }

  /** A probe's result; a change from a known state (not from `unknown`, the panel's own start) is reported. */
  private settle(id: string, entry: Entry): void {
    const before = this.entries.get(id)?.status;
    this.entries.set(id, entry);
    if (
      (before === 'online' || before === 'offline') &&
      before !== entry.status &&
      entry.status !== 'unknown'
    )
      this.onChange(id, entry.status);
  }

  /**
   * Probes now, after any probe in flight (which may have started before the change): an outbound node's link
   * connecting or dropping is seen, recorded and its events pulled at once instead of at the next stale read.
   */
  async refresh(nodeId: string): Promise<void> {
    await this.entries.get(nodeId)?.probing;
    await this.probe(nodeId);
  }

  forget(nodeId: string): void {
    this.entries.delete(nodeId);
  }

  private probe(id: string): Promise<void> {
    const current = this.entries.get(id);
    if (current?.probing) return current.probing;
    const probing = this.link
      .json<DaemonFeatures>(id, PROBE_GRANT, { method: 'GET', path: '/daemon/features' }, PROBE_TIMEOUTS)
      .then(
        (features) => this.settle(id, { status: 'online', features, at: Date.now() }),
        (err: unknown) => {
          // Any answer from the daemon (even a refusal) means it is up; no answer means offline, and so does
          // a peer that failed the node's certificate check: it is not the node (docs/security.md § Node link).
          const down =
            isAppError(err) &&
            [
              'ErrNodeOffline',
              'ErrNodeTimeout',
              'ErrNodeNotFound',
              'ErrNodeCertificate',
              'ErrNodeLinkLost',
            ].includes(err.code);
          this.settle(id, { status: down ? 'offline' : 'online', at: Date.now() });
        },
      )
      .then(() => undefined);
    this.entries.set(id, {
      status: current?.status ?? 'unknown',
      features: current?.features,
      at: current?.at ?? 0,
      probing,
    });
    return probing;
  }
}
