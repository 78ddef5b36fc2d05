import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { hasScope } from '../../api/scopes';
import { session } from '../../api/session';
import { landingPathFor } from '../../app/routes';
import { hasServersQuery } from '../../app/useAccess';

/**
 * Stores the session and goes to Servers when the user may see any server (servers.view, admin, or
 * permissions on a server of their own), otherwise to Account (docs/permissions.md § Web guards).
 */
export function useCompleteLogin(): (token: string, scopes: string[]) => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (token, scopes) => {
    // A previous user's answer must not decide for this one.
    queryClient.removeQueries({ queryKey: hasServersQuery.queryKey });
    session.login(token, scopes);
    const go = (hasServers: boolean) =>
      void navigate(landingPathFor({ scopes, hasServers }), { replace: true });
    if (hasScope(scopes, 'servers.view')) return go(true);
    queryClient.fetchQuery(hasServersQuery).then(go, () => go(false));
  };
}
