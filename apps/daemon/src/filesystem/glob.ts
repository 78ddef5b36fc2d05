/** A small glob for processor sources: `*` and `?` inside one path segment, no `**`, no braces. */

function segmentRegex(segment: string): RegExp {
  const escaped = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}$`);
}

const hasWildcard = (segment: string) => /[*?]/.test(segment);

/** Names in a folder (relative path, '' = root); the sandbox lists without following links. */
export type Lister = (folder: string) => Promise<string[]>;

/** Expands `pattern` (relative, already checked) with `list`; returns matching relative paths, sorted. */
export async function expandGlob(list: Lister, pattern: string): Promise<string[]> {
  let current = [''];
  for (const segment of pattern.split('/').filter((s) => s !== '' && s !== '.')) {
    if (!hasWildcard(segment)) {
      current = current.map((base) => (base ? `${base}/${segment}` : segment));
      continue;
    }
    const regex = segmentRegex(segment);
    const next: string[] = [];
    for (const base of current) {
      for (const name of await list(base)) if (regex.test(name)) next.push(base ? `${base}/${name}` : name);
    }
    current = next;
  }
  return current.filter((p) => p !== '').sort();
}
