/** Finding Debian's freeciv-server and running it as an unprivileged user when the tests run as root. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const FREECIV = '/usr/games/freeciv-server';

/** freeciv-server refuses to run as root; `setpriv` drops to nobody first (as a template would). */
export function freecivPrefix(): string {
  return process.getuid?.() === 0 ? 'setpriv --reuid=65534 --regid=65534 --clear-groups --' : '';
}

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
