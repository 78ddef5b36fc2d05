import { randomUUID } from 'node:crypto';
import { AppError } from '@hearth/contract';
import type {
  NodeBody,
  NodeDeployment,
  NodeLinkMode,
  NodeLinkState,
  NodeTlsMode,
  NodeUpdate,
  NodeView,
} from '@hearth/contract/nodes';
import { readPublicKeyPem } from '../../lib/keys';
import { SecretBox } from '../../lib/secret-box';
import { hashToken, randomToken } from '../../lib/tokens';
import { needsRotate } from '../../nodes-link/link-mode';
import type { SettingsService } from '../settings/settings.service';
import { deploymentOf } from './node-deployment';
import { checkLinkMode, checkNode, checkNodeLink } from './node-rules';
import { issueNodeSecrets, openNodeSecrets } from './node-secrets';
import type { NodeRow, NodesRepository } from './nodes.repository';

/**
 * Who edits a node: weakening its link is an administrator's choice (node-rules.ts checkLinkMode). In-process
 * callers without a user (benchmarks) count as non-admins.
 */
export interface NodeEditor {
  admin: boolean;
}

/** The node `hearth start` runs beside the panel; its addresses are the config's `node` section. */
export const LOCAL_NODE = { id: 'local', name: 'local', host: '127.0.0.1' } as const;

/** Where the local node listens, from the panel's config (docs/configuration.md § Local node). */
export interface LocalNodeAddress {
  /** The address the panel calls (loopback when the node listens on every address). */
  host: string;
  port: number;
  sftpPort: number;
}

export function nodeView(row: NodeRow): NodeView {
  return {
    id: row.id,
    name: row.name,
    publicHost: row.public_host,
    publicPort: Number(row.public_port),
    privateHost: row.private_host,
    privatePort: Number(row.private_port),
    sftpPort: Number(row.sftp_port),
    isLocal: Number(row.is_local) === 1,
    tlsMode: row.tls_mode as NodeTlsMode,
    tlsFingerprint: row.tls_fingerprint,
    tlsNeedsRotate: needsRotate(row),
    link: row.link === 'outbound' ? 'outbound' : 'inbound',
  };
}

function columnsOf(body: NodeUpdate): Partial<NodeRow> {
  const out: Partial<NodeRow> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.publicHost !== undefined) out.public_host = body.publicHost;
  if (body.publicPort !== undefined) out.public_port = body.publicPort;
  if (body.privateHost !== undefined) out.private_host = body.privateHost;
  if (body.privatePort !== undefined) out.private_port = body.privatePort;
  if (body.sftpPort !== undefined) out.sftp_port = body.sftpPort;
  if (body.tlsMode !== undefined) out.tls_mode = body.tlsMode;
  if (body.link !== undefined) out.link = body.link;
  return out;
}

export interface NodesDeps {
  nodes: NodesRepository;
  settings: SettingsService;
  dataDir: string;
  /** The panel's own address when no master URL is set (deployment files need one). */
  fallbackPanelUrl: string;
  localNode: LocalNodeAddress;
  /** The port the panel's web server listens on: no outbound node's SFTP relay may take it. */
  panelPort: number;
  /** The outbound side (sftp-relay.ts): the link's live state and the relays to re-apply after a change. */
  outbound?: OutboundLinks;
}

/** What the nodes service needs of the outbound link and its SFTP relay (nodes-link/sftp-relay.ts). */
export interface OutboundLinks {
  state(nodeId: string, sftpPort: number): NodeLinkState;
  /** Listens for the outbound nodes as stored now (and stops listening for the others); never throws. */
  apply(): Promise<void>;
}

export class NodesService {
  private secretBox: SecretBox | null = null;

  constructor(private readonly deps: NodesDeps) {}

  async list(): Promise<NodeView[]> {
    return (await this.deps.nodes.list()).map((row) => this.withLinkState(nodeView(row)));
  }

  async row(id: string): Promise<NodeRow> {
    const row = await this.deps.nodes.findById(id);
    if (!row) throw new AppError('ErrNodeNotFound');
    return row;
  }

  async get(id: string): Promise<NodeView> {
    return this.withLinkState(nodeView(await this.row(id)));
  }

  private withLinkState(view: NodeView): NodeView {
    const outbound = view.link === 'outbound' ? this.deps.outbound : undefined;
    return { ...view, linkState: outbound ? outbound.state(view.id, view.sftpPort) : null };
  }

  /** The link rules (node-rules.ts checkNodeLink) against the stored nodes and this panel's own ports. */
  private async checkLink(
    id: string | null,
    after: { link: NodeLinkMode; sftpPort: number },
    isLocal: boolean,
  ): Promise<void> {
    const { panelPort, localNode } = this.deps;
    const portTaken =
      after.link === 'outbound' && (await this.deps.nodes.outboundPortTaken(after.sftpPort, id));
    checkNodeLink(after, {
      isLocal,
      portTaken,
      reservedPorts: [panelPort, localNode.port, localNode.sftpPort],
    });
  }

  /** The answer carries the deployment: the node credential and the certificate the panel generated for it. */
  async create(
    body: NodeBody,
    editor: NodeEditor = { admin: false },
  ): Promise<NodeView & { deployment: NodeDeployment }> {
    checkNode(body);
    const tlsMode = body.tlsMode ?? 'pinned';
    checkLinkMode(null, { tlsMode, privateHost: body.privateHost }, { admin: editor.admin, isLocal: false });
    const link = body.link ?? 'inbound';
    await this.checkLink(null, { link, sftpPort: body.sftpPort }, false);
    const id = randomUUID();
    const row: NodeRow = {
      id,
      ...(columnsOf(body) as Pick<
        NodeRow,
        'name' | 'public_host' | 'public_port' | 'private_host' | 'private_port' | 'sftp_port'
      >),
      tls_mode: tlsMode,
      link,
      ...issueNodeSecrets(this.box(), id, [body.privateHost, body.publicHost]),
      is_local: 0,
      created_at: Date.now(),
    };
    await this.deps.nodes.insert(row);
    if (link === 'outbound') await this.deps.outbound?.apply();
    return { ...this.withLinkState(nodeView(row)), deployment: await this.instructions(row) };
  }

  async update(id: string, body: NodeUpdate, editor: NodeEditor = { admin: false }): Promise<void> {
    const row = await this.row(id);
    const current = nodeView(row);
    const merged = { ...current, ...body };
    checkNode(merged);
    checkLinkMode(current, merged, { admin: editor.admin, isLocal: current.isLocal });
    await this.checkLink(id, merged, current.isLocal);
    await this.deps.nodes.update(id, columnsOf(body));
    // A relay follows its node's mode and port at once (another panel process catches up on its next sweep).
    const relayMoved = merged.link !== current.link || merged.sftpPort !== current.sftpPort;
    if (relayMoved && (merged.link === 'outbound' || current.link === 'outbound')) {
      await this.deps.outbound?.apply();
    }
  }

  async delete(id: string): Promise<void> {
    const row = await this.row(id);
    if (Number(row.is_local) === 1) throw new AppError('ErrNodeIsLocal');
    if ((await this.deps.nodes.serverCount(id)) > 0) throw new AppError('ErrNodeHasServers');
    await this.deps.nodes.delete(id);
    if (row.link === 'outbound') await this.deps.outbound?.apply();
  }

  /**
   * Creates the local node on first start (idempotent; a concurrent start losing the race is fine), and moves it
   * to the addresses of the config's `node` section when they changed: the config is where they are decided.
   */
  async ensureLocal(): Promise<void> {
    const { host: privateHost, port, sftpPort } = this.deps.localNode;
    const existing = await this.deps.nodes.findLocal();
    if (existing) {
      const moved =
        existing.private_host !== privateHost ||
        Number(existing.private_port) !== port ||
        Number(existing.public_port) !== port ||
        Number(existing.sftp_port) !== sftpPort;
      if (moved) {
        await this.deps.nodes.update(existing.id, {
          private_host: privateHost,
          private_port: port,
          public_port: port,
          sftp_port: sftpPort,
        });
      }
      return;
    }
    const host = await this.publicHostOfPanel();
    await this.deps.nodes
      .insert({
        id: LOCAL_NODE.id,
        name: LOCAL_NODE.name,
        public_host: host,
        public_port: port,
        private_host: privateHost,
        private_port: port,
        sftp_port: sftpPort,
        secret_hash: hashToken(randomToken()),
        secret_sealed: null,
        // Loopback beside the panel, in the same process tree: plain HTTP never leaves the machine.
        tls_mode: 'plain',
        tls_cert: null,
        tls_fingerprint: null,
        tls_key_sealed: null,
        link: 'inbound',
        is_local: 1,
        created_at: Date.now(),
      })
      .catch(async (err: unknown) => {
        if (!(await this.deps.nodes.findLocal())) throw err;
      });
  }

  /** The complete deployment instructions again (a GET changes nothing; the secrets are kept sealed). */
  async deployment(id: string): Promise<NodeDeployment> {
    return this.instructions(await this.row(id));
  }

  /**
   * Issues a fresh node credential and certificate (the previous ones stop working once the node runs the new
   * file) and answers the instructions with them. A node from before certificates gets its first one here.
   */
  async rotate(id: string): Promise<NodeDeployment> {
    const row = await this.row(id);
    const secrets = issueNodeSecrets(this.box(), row.id, [row.private_host, row.public_host]);
    await this.deps.nodes.update(id, secrets);
    return this.instructions({ ...row, ...secrets });
  }

  /**
   * A fresh secret for the local node, handed in-process to the daemon `hearth start` runs beside the panel
   * (its SFTP asks the panel about logins with it). Each start issues a new one: nothing stores it.
   */
  async issueLocalSecret(): Promise<string> {
    await this.ensureLocal();
    const local = await this.deps.nodes.findLocal();
    if (!local) throw new AppError('ErrNodeNotFound');
    const secret = randomToken();
    await this.deps.nodes.update(local.id, { secret_hash: hashToken(secret) });
    return secret;
  }

  private async instructions(row: NodeRow): Promise<NodeDeployment> {
    const panel = { url: await this.panelUrl(), publicKeyPem: readPublicKeyPem(this.deps.dataDir) };
    return deploymentOf(row, openNodeSecrets(this.box(), row), panel);
  }

  /** Opened on first use: the key file is created in the data folder only when a secret is sealed. */
  private box(): SecretBox {
    this.secretBox ??= SecretBox.forDataDir(this.deps.dataDir);
    return this.secretBox;
  }

  private async panelUrl(): Promise<string> {
    const master = (await this.deps.settings.effective())['panel.settings.masterUrl'];
    return typeof master === 'string' && master ? master : this.deps.fallbackPanelUrl;
  }

  private async publicHostOfPanel(): Promise<string> {
    try {
      return new URL(await this.panelUrl()).hostname || LOCAL_NODE.host;
    } catch {
      return LOCAL_NODE.host; // no usable master URL yet: the node is reached on loopback
    }
  }
}
