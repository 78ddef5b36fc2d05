/**
 * A shell script a server runs to report what it can reach: its ids, whether Hearth's files and another server's
 * folder can be read, listed or written, whether its own folder is writable, what /tmp is. Each result is one
 * `key value` line in a report file in its own folder, read back by the test (as root).
 */
export interface ProbeTargets {
  read: string[];
  list: string[];
  write: string[];
  /** A file in the host's /tmp: visible without bubblewrap, hidden by its private /tmp. */
  hostTmpMarker: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function probeScript(targets: ProbeTargets): string {
  const lines = [
    'report="report-$1.txt"',
    'exec > "$report.part" 2>&1',
    'echo "uid $(id -u)"',
    'echo "gid $(id -g)"',
    'echo "groups $(id -G)"',
    'echo "home $HOME"',
    'if env | grep -q "^HEARTH_"; then echo "hearth-env visible"; else echo "hearth-env absent"; fi',
    'if grep -q "^NoNewPrivs:[[:space:]]*1" /proc/self/status; then echo "no-new-privs 1"; else echo "no-new-privs 0"; fi',
    ...targets.read.map(
      (p) =>
        `if cat -- ${quote(p)} >/dev/null 2>&1; then echo "read-ok ${p}"; else echo "read-denied ${p}"; fi`,
    ),
    ...targets.list.map(
      (p) =>
        `if ls -A -- ${quote(p)} >/dev/null 2>&1; then echo "list-ok ${p}:$(ls -A -- ${quote(p)} | tr '\\n' ' ')"; else echo "list-denied ${p}"; fi`,
    ),
    ...targets.write.map(
      // A subshell: a failed redirection of the special built-in `:` would end the script itself.
      (p) => `if (: > ${quote(p)}) 2>/dev/null; then echo "write-ok ${p}"; else echo "write-denied ${p}"; fi`,
    ),
    `if [ -e ${quote(targets.hostTmpMarker)} ]; then echo "host-tmp visible"; else echo "host-tmp hidden"; fi`,
    'if echo mine > "own-$1.txt"; then echo "own-write ok"; else echo "own-write denied"; fi',
    'mv "$report.part" "$report"',
  ];
  return `${lines.join('\n')}\n`;
}

/** `key value` lines → the values of each key (read-ok/read-denied etc. collect their paths). */
export function parseReport(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of text.split('\n').filter(Boolean)) {
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    found.set(key, [...(found.get(key) ?? []), space < 0 ? '' : line.slice(space + 1)]);
  }
  return found;
}
