import { randomUUID } from 'node:crypto';
import { AppError } from '@hearth/contract';
import type { NodeBody, NodeDeployment, NodeUpdate, NodeView } from '@hearth/contract/nodes';
import { readPublicKeyPem } from '../../lib/keys';
import { hashToken, randomToken } from '../../lib/tokens';
import type { SettingsService } from '../settings/settings.service';
import { checkNode } from './node-rules';
import type { NodeRow, NodesRepository } from './nodes.repository';

/** The node `hearth start` runs beside the panel (apps/daemon `localDaemonConfig`: 127.0.0.1:5656). */
export const LOCAL_NODE = {
  id: 'local',
  name: 'local',
  host: '127.0.0.1',
  port: 5656,
  sftpPort: 5657,
} as const;

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
  return out;
}

export interface NodesDeps {
  nodes: NodesRepository;
  settings: SettingsService;
  dataDir: string;
  /** The panel's own address when no master URL is set (deployment files need one). */
  fallbackPanelUrl: string;
}

export class NodesService {
  constructor(private readonly deps: NodesDeps) {}

  async list(): Promise<NodeView[]> {
    return (await this.deps.nodes.list()).map(nodeView);
  }

  async row(id: string): Promise<NodeRow> {
    const row = await this.deps.nodes.findById(id);
    if (!row) throw new AppError('ErrNodeNotFound');
    return row;
  }

  async get(id: string): Promise<NodeView> {
    return nodeView(await this.row(id));
  }

  /** The answer carries the deployment with the node's first secret (shown once; only its hash is kept). */
  async create(body: NodeBody): Promise<NodeView & { deployment: NodeDeployment }> {
    checkNode(body);
    const secret = randomToken();
    const row: NodeRow = {
      id: randomUUID(),
      ...(columnsOf(body) as Omit<NodeRow, 'id' | 'secret_hash' | 'is_local' | 'created_at'>),
      secret_hash: hashToken(secret),
      is_local: 0,
      created_at: Date.now(),
    };
    await this.deps.nodes.insert(row);
    return { ...nodeView(row), deployment: await this.instructions(row, secret) };
  }

  async update(id: string, body: NodeUpdate): Promise<void> {
    const current = nodeView(await this.row(id));
    checkNode({ ...current, ...body });
    await this.deps.nodes.update(id, columnsOf(body));
  }

  async delete(id: string): Promise<void> {
    const row = await this.row(id);
    if (Number(row.is_local) === 1) throw new AppError('ErrNodeIsLocal');
    if ((await this.deps.nodes.serverCount(id)) > 0) throw new AppError('ErrNodeHasServers');
    await this.deps.nodes.delete(id);
  }

  /** Creates the local node on first start (idempotent; a concurrent start losing the race is fine). */
  async ensureLocal(): Promise<void> {
    if (await this.deps.nodes.findLocal()) return;
    const host = await this.publicHostOfPanel();
    await this.deps.nodes
      .insert({
        id: LOCAL_NODE.id,
        name: LOCAL_NODE.name,
        public_host: host,
        public_port: LOCAL_NODE.port,
        private_host: LOCAL_NODE.host,
        private_port: LOCAL_NODE.port,
        sftp_port: LOCAL_NODE.sftpPort,
        secret_hash: hashToken(randomToken()),
        is_local: 1,
        created_at: Date.now(),
      })
      .catch(async (err: unknown) => {
        if (!(await this.deps.nodes.findLocal())) throw err;
      });
  }

  /** The deployment instructions without the secret (a GET changes nothing; only the hash is kept). */
  async deployment(id: string): Promise<NodeDeployment> {
    return this.instructions(await this.row(id));
  }

  /** Issues a fresh node secret (the previous one stops working) and answers the instructions with it. */
  async rotate(id: string): Promise<NodeDeployment> {
    const row = await this.row(id);
    const secret = randomToken();
    await this.deps.nodes.update(id, { secret_hash: hashToken(secret) });
    return this.instructions(row, secret);
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

  /** With a just-issued secret, the config file is complete: the daemon reads it at `sftp.clientSecret`. */
  private async instructions(row: NodeRow, secret?: string): Promise<NodeDeployment> {
    const publicKey = readPublicKeyPem(this.deps.dataDir);
    const port = Number(row.sftp_port);
    const config = {
      nodeId: row.id,
      host: '0.0.0.0',
      port: Number(row.private_port),
      dataDir: '/var/lib/hearth',
      panelUrl: await this.panelUrl(),
      publicKeyPem: publicKey,
      sftp: secret === undefined ? { port } : { port, clientSecret: secret },
    };
    const answer = { clientId: `.node_${row.id}`, publicKey, config };
    return secret === undefined ? answer : { ...answer, clientSecret: secret };
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
