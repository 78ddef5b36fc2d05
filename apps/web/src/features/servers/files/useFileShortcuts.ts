import { useEffect, useRef } from 'react';
import { tinykeys } from 'tinykeys';
import { isTypingTarget } from '../../../app/shell/useShortcuts';
import { isSequenceTail } from './file-model';

export interface FileShortcuts {
  newFile: () => void;
  newFolder: () => void;
  refresh: () => void;
  upload: () => void;
  open: () => void;
  move: (delta: number) => void;
}

/** Shortcuts: n f, n d, r, u, Enter (plus arrows to pick the entry Enter opens); off while an overlay is open. */
export function useFileShortcuts(actions: FileShortcuts, enabled: boolean) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    let previous: { key: string; at: number } | null = null;
    const guard =
      (fn: (a: FileShortcuts) => void, single = false) =>
      (event: KeyboardEvent) => {
        if (isTypingTarget(event.target) || document.querySelector('[role="dialog"]')) return;
        if (single && isSequenceTail(previous, event.timeStamp)) return;
        // Enter on a focused button or link is that control's own click.
        if (event.target instanceof HTMLElement && event.target.closest('button, a') && event.key === 'Enter')
          return;
        event.preventDefault();
        fn(latest.current);
      };
    const unbind = tinykeys(window, {
      'n f': guard((a) => a.newFile()),
      'n d': guard((a) => a.newFolder()),
      r: guard((a) => a.refresh(), true),
      u: guard((a) => a.upload(), true),
      Enter: guard((a) => a.open()),
      ArrowDown: guard((a) => a.move(1)),
      ArrowUp: guard((a) => a.move(-1)),
    });
    // Registered after tinykeys, so during a key's handlers `previous` is still the key before it.
    const track = (event: KeyboardEvent) => {
      previous = { key: event.key.toLowerCase(), at: event.timeStamp };
    };
    window.addEventListener('keydown', track);
    return () => {
      unbind();
      window.removeEventListener('keydown', track);
    };
  }, [enabled]);
}
