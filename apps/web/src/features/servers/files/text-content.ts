/**
 * Whether a file's bytes are text the editor may open (issue 16 item 4): decided by content, not by
 * extension, so a `.cfg` that is really a zip, or a `.dat` that is plain text, is handled by what it holds.
 * The rule is the one `git` and `file` use: a NUL byte in the first 8 KiB means binary, and so does a
 * byte sequence that is not UTF-8 (the editor saves UTF-8, so it would rewrite such a file). See docs/files.md.
 */

/** How much of a file is looked at. */
export const SNIFF_BYTES = 8 * 1024;

export function looksBinary(head: Uint8Array): boolean {
  const sample = head.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return true;
  try {
    // `stream: true` leaves a multibyte character cut at the 8 KiB boundary pending instead of failing.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** The file's text, or `null` when it is binary. */
export async function textOrBinary(blob: Blob): Promise<string | null> {
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  if (looksBinary(head)) return null;
  return blob.text();
}
