import { isIP } from 'node:net';
import { AppError, type ErrorMetadata } from '@hearth/contract';
import type { NodeBody } from '@hearth/contract/nodes';

const FQDN = /^(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?$/;
const PRINTABLE = /^[\x20-\x7e]+$/;
const URI_UNSAFE = /[/?#%&=+\\<>"'`{}|^[\]\s]/;

export function isHost(value: string): boolean {
  return isIP(value) !== 0 || FQDN.test(value);
}

function fail(code: 'ErrFieldNotBetween' | 'ErrFieldEqual', metadata: ErrorMetadata): never {
  throw new AppError(code, metadata);
}

/** The domain rules of a node (SPEC §3, §5; reference v2 §10), checked on the merged record. */
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
