import type { NodeBody, NodeLinkMode, NodeTlsMode, NodeView } from '@hearth/contract/nodes';

/** The form's values: one address pair, and a second one only when the node has a separate private address. */
export interface NodeFormValues {
  name: string;
  publicHost: string;
  publicPort: number | string;
  separatePrivate: boolean;
  privateHost: string;
  privatePort: number | string;
  sftpPort: number | string;
  /** How the panel reaches the daemon (docs/security.md § Node link). */
  tlsMode: NodeTlsMode;
  /** Who opens the link: the panel (inbound) or the node (outbound; docs/operations.md § Remote node). */
  link: NodeLinkMode;
}

export const emptyNodeForm: NodeFormValues = {
  name: '',
  publicHost: '',
  publicPort: 5656,
  separatePrivate: false,
  privateHost: '',
  privatePort: 5656,
  sftpPort: 5657,
  tlsMode: 'pinned',
  link: 'inbound',
};

export function nodeToForm(node: NodeView): NodeFormValues {
  return {
    name: node.name,
    publicHost: node.publicHost,
    publicPort: node.publicPort,
    separatePrivate: node.privateHost !== node.publicHost || node.privatePort !== node.publicPort,
    privateHost: node.privateHost,
    privatePort: node.privatePort,
    sftpPort: node.sftpPort,
    tlsMode: node.tlsMode,
    link: node.link,
  };
}

/** Ports go as numbers; without a separate private address the public one is used for both. */
export function formToBody(values: NodeFormValues): NodeBody {
  const publicPort = Number(values.publicPort);
  return {
    name: values.name.trim(),
    publicHost: values.publicHost.trim(),
    publicPort,
    privateHost: values.separatePrivate ? values.privateHost.trim() : values.publicHost.trim(),
    privatePort: values.separatePrivate ? Number(values.privatePort) : publicPort,
    sftpPort: Number(values.sftpPort),
    tlsMode: values.tlsMode,
    link: values.link,
  };
}

const validPort = (v: number | string) => {
  const n = Number(v);
  return v !== '' && Number.isInteger(n) && n >= 1 && n <= 65535;
};

/** Client-side checks mirroring the panel's (it checks again and answers with catalogue errors). */
export function validateNode(values: NodeFormValues): Partial<Record<keyof NodeFormValues, string>> {
  const errors: Partial<Record<keyof NodeFormValues, string>> = {};
  if (!values.name.trim()) errors.name = 'validation.required';
  if (!values.publicHost.trim()) errors.publicHost = 'validation.required';
  if (values.separatePrivate && !values.privateHost.trim()) errors.privateHost = 'validation.required';
  for (const key of ['publicPort', 'privatePort', 'sftpPort'] as const) {
    if (key === 'privatePort' && !values.separatePrivate) continue;
    if (!validPort(values[key])) errors[key] = 'nodes.validation.port';
  }
  const body = formToBody(values);
  if (!errors.sftpPort && (body.sftpPort === body.publicPort || body.sftpPort === body.privatePort)) {
    errors.sftpPort = 'nodes.validation.sftpDistinct';
  }
  return errors;
}
