import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { tinykeys } from 'tinykeys';
import { visibleNavEntries } from '../routes';
import { useAccess } from '../useAccess';

/** True when the key press belongs to a text field, where letters must not navigate. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.cm-editor') !== null;
}

/** `g a`, `g s`, `g n`, `g u`, `g t`, `g c` from the route table, for the entries the user may see. */
export function useNavShortcuts(): void {
  const navigate = useNavigate();
  const { scopes, hasServers } = useAccess();
  useEffect(() => {
    const bindings = Object.fromEntries(
      visibleNavEntries({ scopes, hasServers }).map((entry) => [
        entry.shortcut,
        (event: KeyboardEvent) => {
          if (isTypingTarget(event.target)) return;
          event.preventDefault();
          void navigate(entry.to);
        },
      ]),
    );
    return tinykeys(window, bindings);
  }, [navigate, scopes, hasServers]);
}
