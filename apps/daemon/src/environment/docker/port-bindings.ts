/**
 * Port bindings in the text form `host:outsidePort:insidePort/protocol`: host may be omitted
 * (`25565:25565`) or `{ip}`, both meaning all addresses; an IPv6 host goes in brackets; protocol tcp (default)
 * or udp. A bare `25565` binds the same port outside and inside. Anything else is ErrDockerBindingInvalid.
 */
import { isIP } from 'node:net';
import { AppError } from '@hearth/contract';

export interface PortBinding {
  /** Empty = all addresses. */
  hostIp: string;
  hostPort: number;
  containerPort: number;
  protocol: 'tcp' | 'udp';
}

const FORM = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]*):)?(?:(\d{1,5}):)?(\d{1,5})(?:\/(tcp|udp))?$/;

function port(text: string | undefined, binding: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new AppError('ErrDockerBindingInvalid', { binding, reason: 'ports are 1 to 65535' });
  }
  return value;
}

function hostOf(raw: string | undefined, binding: string): string {
  const host = (raw ?? '').replace(/^\[(.*)\]$/, '$1');
  if (host === '' || host === '{ip}' || host === '0.0.0.0') return '';
  if (!isIP(host))
    throw new AppError('ErrDockerBindingInvalid', { binding, reason: 'the host must be an IP' });
  return host;
}

export function parsePortBinding(text: string): PortBinding {
  const binding = text.trim();
  const match = FORM.exec(binding);
  if (!match) {
    throw new AppError('ErrDockerBindingInvalid', {
      binding: text,
      reason: 'expected host:outsidePort:insidePort/protocol',
    });
  }
  const [, host, outside, inside, protocol] = match;
  // `a:b` is outside:inside; a lone host with one port (`1.2.3.4:80`) is ambiguous and refused.
  if (host !== undefined && outside === undefined && !/^\d+$/.test(host)) {
    throw new AppError('ErrDockerBindingInvalid', { binding: text, reason: 'an outside port is required' });
  }
  const outsideText = outside ?? (host !== undefined && /^\d+$/.test(host) ? host : inside);
  const hostText = outside === undefined ? undefined : host;
  return {
    hostIp: hostOf(hostText, text),
    hostPort: port(outsideText, text),
    containerPort: port(inside, text),
    protocol: protocol === 'udp' ? 'udp' : 'tcp',
  };
}

/** Docker's `ExposedPorts` and `HostConfig.PortBindings` for a list of bindings. */
export function dockerPorts(bindings: PortBinding[]): {
  exposed: Record<string, object>;
  portBindings: Record<string, Array<{ HostIp: string; HostPort: string }>>;
} {
  const exposed: Record<string, object> = {};
  const portBindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
  for (const b of bindings) {
    const key = `${b.containerPort}/${b.protocol}`;
    exposed[key] = {};
    (portBindings[key] ??= []).push({ HostIp: b.hostIp, HostPort: String(b.hostPort) });
  }
  return { exposed, portBindings };
}
