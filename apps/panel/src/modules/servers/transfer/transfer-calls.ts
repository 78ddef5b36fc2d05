/**
 * The daemon calls of one transfer, named: the server's own routes on either node with the administrator's
 * node-admin grant (the nodes' logs name who moved it), the transfer rows on the target with the panel's own
 * token (they refuse every user's).
 */
import type { DaemonTokenGrant, ServerDefinitionView, StatusResponse, TransferCarry } from '@hearth/contract';
import type { NodeLink } from '../../../nodes-link/node-link';
import { PANEL_GRANT, type NodeRef } from './transfer-copy';

/** A stop or start that waits may take as long as the proxy lets `?wait=true` take. */
const POWER_RESPONSE_MS = 120_000;
/** The commit renames and registers: quick, but on a loaded disk not instant. */
const COMMIT_RESPONSE_MS = 10 * 60_000;

export class TransferCalls {
  constructor(
    private readonly link: NodeLink,
    private readonly serverId: string,
    private readonly grant: DaemonTokenGrant,
  ) {}

  private server(path = ''): string {
    return `/daemon/server/${this.serverId}${path}`;
  }

  private transfer(path = ''): string {
    return `/daemon/transfer/${this.serverId}${path}`;
  }

  status(node: NodeRef): Promise<StatusResponse> {
    return this.link.json(node.id, this.grant, { method: 'GET', path: this.server('/status') });
  }

  definition(node: NodeRef): Promise<ServerDefinitionView> {
    return this.link.json(node.id, this.grant, { method: 'GET', path: this.server() });
  }

  async power(node: NodeRef, action: 'start' | 'stop'): Promise<void> {
    const path = this.server(`/${action}?wait=true`);
    await this.link.json(node.id, this.grant, { method: 'POST', path }, { responseMs: POWER_RESPONSE_MS });
  }

  async deleteServer(node: NodeRef): Promise<void> {
    await this.link.json(node.id, this.grant, { method: 'DELETE', path: this.server() });
  }

  /** A's own marks of the server (who wrote its definition, its tasks with owners), handed to B's prepare. */
  carry(node: NodeRef): Promise<TransferCarry> {
    return this.link.json(node.id, PANEL_GRANT, { method: 'GET', path: this.transfer('/carry') });
  }

  async prepare(
    node: NodeRef,
    definition: ServerDefinitionView,
    bytes: number,
    carry: TransferCarry,
  ): Promise<void> {
    const body = JSON.stringify({ definition, bytes, carry });
    await this.link.json(node.id, PANEL_GRANT, { method: 'POST', path: this.transfer('/prepare'), body });
  }

  async commit(node: NodeRef, sha256: string): Promise<void> {
    const call = { method: 'POST', path: this.transfer('/commit'), body: JSON.stringify({ sha256 }) };
    await this.link.json(node.id, PANEL_GRANT, call, { responseMs: COMMIT_RESPONSE_MS });
  }

  async abort(node: NodeRef): Promise<void> {
    await this.link.json(node.id, PANEL_GRANT, { method: 'DELETE', path: this.transfer() });
  }
}
