/**
 * The escape table: hostile paths, each tried by every transport and operation of the escape suite. The
 * server root holds `link-etc` → /etc, `link-out` → the canary's folder (outside), `link-file` → the canary,
 * and a normal `sub/` folder; the canary lives beside the root.
 */
export interface EscapeLayout {
  root: string;
  outside: string;
  canary: string;
}

export function escapePaths(l: EscapeLayout): string[] {
  return [
    '../canary.txt',
    '../../canary.txt',
    'sub/../../canary.txt',
    './../canary.txt',
    '..',
    '../',
    '..\\canary.txt',
    'sub\\..\\..\\canary.txt',
    '..%2fcanary.txt',
    '%2e%2e%2fcanary.txt',
    '%2e%2e/canary.txt',
    '%252e%252e%252fcanary.txt',
    '/etc/passwd',
    '//etc/passwd',
    l.canary,
    `${l.root}/../canary.txt`,
    'C:\\Windows\\win.ini',
    'sub/x\0.txt',
    'canary.txt\0',
    '\0',
    'link-etc/passwd',
    'link-etc',
    'link-etc/',
    'link-etc/hearth-new.txt',
    'link-out/canary.txt',
    'link-out/new.txt',
    'link-out/deeper/new.txt',
    'link-out',
    'link-file',
    'sub/../link-out/canary.txt',
  ];
}
