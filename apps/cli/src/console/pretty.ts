/**
 * One pino JSON line → one short human line for a terminal: `12:00:01 INFO  panel  message key=value`.
 * Fastify's access lines read `GET /api/servers` and `← 200 in 3 ms`; an error adds its message, and at level
 * error and above its stack. Lines that are not pino's JSON pass through unchanged.
 */
const levels: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '90' },
  30: { name: 'INFO ', color: '32' },
  40: { name: 'WARN ', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};

// pino's and Fastify's own fields, shown in their own way or not at all.
const known = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'name',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

interface Record_ {
  level?: number;
  time?: number;
  name?: string;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

function clock(time: number | undefined): string {
  const at = new Date(time ?? Date.now());
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function message(record: Record_): string {
  if (record.req?.method && record.req.url) return `${record.req.method} ${record.req.url}`;
  if (record.res?.statusCode !== undefined) {
    const ms = typeof record.responseTime === 'number' ? ` in ${Math.round(record.responseTime)} ms` : '';
    return `← ${record.res.statusCode}${ms}`;
  }
  return record.msg ?? '';
}

function extras(record: Record_): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (known.has(key)) continue;
    if (typeof value === 'string') parts.push(`${key}=${/\s/.test(value) ? JSON.stringify(value) : value}`);
    else if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key}=${value}`);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

export function prettyLine(line: string, color: boolean): string {
  let record: Record_;
  try {
    record = JSON.parse(line) as Record_;
  } catch {
    return line;
  }
  if (typeof record !== 'object' || record === null || typeof record.level !== 'number') return line;
  const level = levels[record.level] ?? { name: String(record.level).padEnd(5), color: '0' };
  const tag = color ? `\u001b[${level.color}m${level.name}\u001b[0m` : level.name;
  const name = (record.name ?? '').padEnd(6);
  let text = `${clock(record.time)} ${tag} ${name} ${message(record)}${extras(record)}`;
  if (record.reqId && (record.req || record.res)) text += ` (${record.reqId})`;
  if (record.err?.message && record.err.message !== record.msg) text += `: ${record.err.message}`;
  if (record.level >= 50 && record.err?.stack) {
    const frames = record.err.stack.split('\n').slice(1);
    if (frames.length > 0) text += `\n${frames.map((f) => `    ${f.trim()}`).join('\n')}`;
  }
  return text;
}
