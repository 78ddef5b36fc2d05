/**
 * The login session: the token lives in a strict same-site cookie (the panel also reads it for
 * websockets), the scopes in local storage. Components subscribe through useSession.
 */
export const SESSION_COOKIE = 'hearth_session';
const SCOPES_KEY = 'scopes';

export type LogoutReason = 'timeout' | 'user';

export interface SessionState {
  token: string | null;
  scopes: string[];
  /** Why the last session ended; the login page shows the timed-out message for 'timeout'. */
  endedBecause: LogoutReason | null;
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string | null): void {
  const attrs = 'path=/; SameSite=Strict' + (location.protocol === 'https:' ? '; Secure' : '');
  document.cookie =
    value === null
      ? `${name}=; ${attrs}; expires=Thu, 01 Jan 1970 00:00:00 GMT`
      : `${name}=${encodeURIComponent(value)}; ${attrs}`;
}

function readScopes(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SCOPES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return []; // corrupt value: treat as no scopes, the next login rewrites it
  }
}

let state: SessionState = { token: readCookie(SESSION_COOKIE), scopes: readScopes(), endedBecause: null };
const listeners = new Set<() => void>();

function update(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  get: (): SessionState => state,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  login: (token: string, scopes: string[]): void => {
    writeCookie(SESSION_COOKIE, token);
    localStorage.setItem(SCOPES_KEY, JSON.stringify(scopes));
    update({ token, scopes, endedBecause: null });
  },
  /** A refreshed token keeps the scopes unless the panel sent new ones. */
  refresh: (token: string, scopes?: string[]): void => {
    writeCookie(SESSION_COOKIE, token);
    if (scopes) localStorage.setItem(SCOPES_KEY, JSON.stringify(scopes));
    update({ ...state, token, scopes: scopes ?? state.scopes });
  },
  logout: (reason: LogoutReason): void => {
    if (!state.token && reason === 'timeout') return;
    writeCookie(SESSION_COOKIE, null);
    localStorage.removeItem(SCOPES_KEY);
    update({ token: null, scopes: [], endedBecause: reason });
  },
  clearEndReason: (): void => {
    if (state.endedBecause) update({ ...state, endedBecause: null });
  },
};
