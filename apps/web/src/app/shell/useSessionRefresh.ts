import type { SessionResponse } from '@hearth/contract/auth';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { session } from '../../api/session';
import { useSession } from '../../api/useSession';

export const SESSION_REFRESH_MS = 600_000;

/**
 * While logged in, POST /auth/reauth every 10 minutes keeps the session alive (docs/security.md § Sessions and
 * tokens).
 */
export function useSessionRefresh(): void {
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    const timer = window.setInterval(() => {
      api.post<SessionResponse>('/auth/reauth').then(
        (reply) => session.refresh(reply.session, reply.scopes),
        // A 401 already ended the session in the client; other failures retry on the next tick.
        () => undefined,
      );
    }, SESSION_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [token]);
}
