/** The console keeps at most this many sent commands per server (oldest dropped first). */
export const HISTORY_LIMIT = 100;

/** What the history needs from `localStorage`, so it can be driven by any Storage. */
export type HistoryStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const historyKey = (serverId: string) => `hearth.console.history.${serverId}`;

/** The stored commands, oldest first; anything unreadable counts as an empty history. */
export function loadHistory(storage: HistoryStorage, serverId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(historyKey(serverId)) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((c): c is string => typeof c === 'string').slice(-HISTORY_LIMIT)
      : [];
  } catch {
    return [];
  }
}

/**
 * Adds a sent command (a repeat of the last one is kept once, like a shell's ignoredups), keeps the newest
 * HISTORY_LIMIT and stores them. A full or refused storage keeps the history for this page only.
 */
export function pushHistory(
  storage: HistoryStorage,
  serverId: string,
  history: string[],
  command: string,
): string[] {
  const next = (history.at(-1) === command ? history : [...history, command]).slice(-HISTORY_LIMIT);
  try {
    storage.setItem(historyKey(serverId), JSON.stringify(next));
  } catch {
    // Quota exceeded or storage disabled: the in-memory history still works.
  }
  return next;
}

/**
 * Moves through the history with ↑ (`-1`) and ↓ (`+1`). `index` is the position shown, `history.length` meaning
 * "the line being typed" (`draft`). Returns the new index and the text to show.
 */
export function stepHistory(
  history: string[],
  index: number,
  direction: -1 | 1,
  draft: string,
): { index: number; text: string } {
  const next = Math.min(history.length, Math.max(0, index + direction));
  return { index: next, text: next === history.length ? draft : (history[next] ?? draft) };
}
