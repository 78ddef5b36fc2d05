/** Reads a systemd unit file's [Service] keys the test needs, as systemd would (docs/operations.md). */
import { readFileSync } from 'node:fs';

export interface ServiceUnit {
  user?: string;
  execStart: string[];
  /** `RuntimeDirectory=`: a folder systemd makes under /run before the start. */
  runtimeDirectory?: string;
  environment: Record<string, string>;
}

export function readServiceUnit(path: string): ServiceUnit {
  let section = '';
  const unit: ServiceUnit = { execStart: [], environment: {} };
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const eq = line.indexOf('=');
    const [key, value] = [line.slice(0, eq), line.slice(eq + 1)];
    // The units use plain words only (no quoting, no specifiers): a split on blanks is exact for them.
    if (key === 'ExecStart') unit.execStart = value.split(/\s+/);
    if (key === 'User') unit.user = value;
    if (key === 'RuntimeDirectory') unit.runtimeDirectory = value;
    if (key === 'Environment')
      for (const pair of value.split(/\s+/)) {
        const at = pair.indexOf('=');
        unit.environment[pair.slice(0, at)] = pair.slice(at + 1);
      }
  }
  if (unit.execStart.length === 0) throw new Error(`${path} has no ExecStart`);
  return unit;
}
