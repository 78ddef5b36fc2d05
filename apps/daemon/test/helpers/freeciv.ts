/**
 * Finding Debian's freeciv-server. It refuses to run as root; a root daemon runs every server under its own uid
 * (docs/security.md "Isolation model"), so the tests need no `setpriv` of their own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const FREECIV = '/usr/games/freeciv-server';

/**
 * In CI a missing game server is a failure; locally the suite is skipped with the reason printed.
 * Returns true when the suite can run.
 */
export function requireFreeciv(): boolean {
  if (existsSync(FREECIV)) return true;
  const reason = `${FREECIV} is missing (apt-get install freeciv-server)`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real game server: ${reason}`);
  console.warn(`skipping freeciv tests: ${reason}`);
  return false;
}

/** The pid of the freeciv-server listening on `port`, from /proc (the daemon does not expose pids). */
export function freecivPid(port: number): number | undefined {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // the process ended while we looked
    }
    const argv = cmdline.split('\0');
    if (argv[0]?.endsWith('freeciv-server') && argv.includes(String(port))) return Number(name);
  }
  return undefined;
}
