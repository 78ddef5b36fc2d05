import { createConnection } from 'node:net';
import type { DialectName } from '../../src/db';

/** Admin URLs of the shared test servers (trust auth / empty root password on dev and CI machines). */
export const serverUrls = {
  postgres: process.env.HEARTH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432',
  mysql: process.env.HEARTH_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
} as const;

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const ci = process.env.CI === 'true';

/**
 * The dialects every database suite runs on: SQLite always; PostgreSQL and MariaDB when reachable.
 * In CI they are always included, so an unreachable server fails the suite instead of skipping it.
 */
export async function dialectsUnderTest(): Promise<DialectName[]> {
  const list: DialectName[] = ['sqlite'];
  for (const dialect of ['postgres', 'mysql'] as const) {
    if (ci || (await reachable(serverUrls[dialect]))) list.push(dialect);
    else
      console.warn(
        `[hearth tests] ${dialect} at ${serverUrls[dialect]} is not reachable: its suites are skipped`,
      );
  }
  return list;
}

/** Top-level await in test files: `describe.each(DIALECTS)`. */
export const DIALECTS = await dialectsUnderTest();
