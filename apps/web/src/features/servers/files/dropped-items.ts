/** Reads a drop's items (synchronously: the DataTransfer empties after the event) into files and folders. */
import type { DroppedItem } from './file-model';

export function itemsOfDrop(data: DataTransfer): DroppedItem[] {
  const items = Array.from(data.items ?? []).filter((item) => item.kind === 'file');
  if (items.length === 0) return Array.from(data.files).map((file) => ({ kind: 'file', file }));
  const out: DroppedItem[] = [];
  for (const item of items) {
    const entry = item.webkitGetAsEntry?.();
    if (entry?.isDirectory) {
      out.push({ kind: 'folder', name: entry.name });
      continue;
    }
    const file = item.getAsFile();
    if (file) out.push({ kind: 'file', file });
  }
  return out;
}
