import type { ErrorDump } from './errors';

/** The one error dump currently shown in the error-details overlay (opened from a toast's Details button). */
let current: ErrorDump | null = null;
const listeners = new Set<() => void>();

export const errorDetailsStore = {
  get: () => current,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  open: (dump: ErrorDump): void => {
    current = dump;
    listeners.forEach((l) => l());
  },
  close: (): void => {
    current = null;
    listeners.forEach((l) => l());
  },
};
