export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** The dialect comes from the URL scheme; `sqlite:` paths are relative to the working directory. */
export function dialectOf(url: string): DialectName {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (/^(mysql|mariadb):\/\//.test(url)) return 'mysql';
  throw new Error(`Unsupported database URL scheme: ${url.split(':')[0] ?? ''}`);
}

export function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  return path === '' ? ':memory:' : path;
}

/** mysql2 only understands `mysql://`; MariaDB speaks the same protocol. */
export function mysqlUri(url: string): string {
  return url.replace(/^mariadb:\/\//, 'mysql://');
}
