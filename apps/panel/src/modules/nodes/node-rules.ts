import { isIP } from 'node:net';
import { AppError, type ErrorMetadata } from '@hearth/contract';
import type { NodeBody, NodeLinkMode, NodeTlsMode } from '@hearth/contract/nodes';

const FQDN = /^(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?$/;
const PRINTABLE = /^[\x20-\x7e]+$/;
const URI_UNSAFE = /[/?#%&=+\\<>"'`{}|^[\]\s]/;

export function isHost(value: string): boolean {
  return isIP(value) !== 0 || FQDN.test(value);
}

function fail(code: 'ErrFieldNotBetween' | 'ErrFieldEqual', metadata: ErrorMetadata): never {
  throw new AppError(code, metadata);
}

/** The domain rules of a node (reference v2 §10), checked on the merged record. */
export function checkNode(node: NodeBody): void {
  if (!PRINTABLE.test(node.name)) throw new AppError('ErrFieldMustBePrintable', { field: 'name' });
  if (URI_UNSAFE.test(node.name)) throw new AppError('ErrFieldHasURICharacters', { field: 'name' });
  for (const field of ['publicHost', 'privateHost'] as const) {
    if (!isHost(node[field])) throw new AppError('ErrFieldIsInvalidHost', { field });
  }
  for (const field of ['publicPort', 'privatePort', 'sftpPort'] as const) {
    if (node[field] < 1 || node[field] > 65535) fail('ErrFieldNotBetween', { field, min: 1, max: 65535 });
  }
  for (const other of ['publicPort', 'privatePort'] as const) {
    if (node.sftpPort === node[other]) fail('ErrFieldEqual', { field: 'sftpPort', other });
  }
}

/** 127.0.0.0/8, ::1 (and its IPv4-mapped form) or `localhost`: the node's link never leaves the machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Who may weaken a node's link (docs/security.md § Node link). `pinned` is always allowed. Anything else lets
 * the node's private host receive the panel's signed tokens without the pin, so it is an administrator's choice
 * — except plain HTTP to a loopback host, which never leaves the machine. For the same reason a non-admin may
 * not move an unpinned node to another private host. The local node (beside the panel) is always plain.
 */
export function checkLinkMode(
  before: { tlsMode: NodeTlsMode; privateHost: string } | null,
  after: { tlsMode: NodeTlsMode; privateHost: string },
  caller: { admin: boolean; isLocal: boolean },
): void {
  if (caller.isLocal) {
    if (after.tlsMode !== 'plain') throw new AppError('ErrFieldInvalid', { field: 'tlsMode' });
    return;
  }
  if (after.tlsMode === 'pinned' || caller.admin) return;
  if (after.tlsMode === 'plain' && isLoopbackHost(after.privateHost)) return;
  const unchanged = before?.tlsMode === after.tlsMode && before.privateHost === after.privateHost;
  if (!unchanged) throw new AppError('ErrMissingScope', { field: 'tlsMode', permission: 'admin' });
}

/**
 * The link mode and, for an outbound node, its SFTP relay port (docs/operations.md § Remote node, outbound
 * mode). The local node runs beside the panel and is always dialled. An outbound node's `sftpPort` is a port
 * the panel itself listens on, so it may be neither one the panel's process already binds (`reservedPorts`: the
 * web port, the local node's ports) nor another outbound node's.
 */
export function checkNodeLink(
  after: { link: NodeLinkMode; sftpPort: number },
  context: { isLocal: boolean; reservedPorts: readonly number[]; portTaken: boolean },
): void {
  if (after.link === 'inbound') return;
  if (context.isLocal) throw new AppError('ErrFieldInvalid', { field: 'link' });
  if (context.portTaken || context.reservedPorts.includes(after.sftpPort)) {
    throw new AppError('ErrNodeLinkPort', { port: after.sftpPort });
  }
}
