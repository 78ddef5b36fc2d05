/**
 * Where a template's `query` asks (docs/daemon.md § Player counts): the port is a variable's value, a number, or
 * the `port` variable; the host is the server's `ip` variable when it names one address, else loopback (a server
 * bound to every address answers there, and the query never leaves the node).
 */
import { isIP } from 'node:net';
import type { Template } from '@hearth/contract';

export interface QueryTarget {
  type: string;
  host: string;
  port: number;
}

function valueOf(definition: Template, name: string): unknown {
  return definition.data[name]?.value;
}

function portOf(value: unknown): number | null {
  const port = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535 ? port : null;
}

function hostOf(definition: Template): string {
  const ip = valueOf(definition, 'ip');
  if (typeof ip !== 'string' || isIP(ip) === 0) return '127.0.0.1';
  return ip === '0.0.0.0' ? '127.0.0.1' : ip === '::' ? '::1' : ip;
}

/** Null when the template declares no query, or its port is not a port. */
export function queryTargetOf(definition: Template): QueryTarget | null {
  const query = definition.query;
  if (!query) return null;
  const port =
    typeof query.port === 'number' ? query.port : portOf(valueOf(definition, query.port ?? 'port'));
  return port === null ? null : { type: query.type, host: hostOf(definition), port };
}
