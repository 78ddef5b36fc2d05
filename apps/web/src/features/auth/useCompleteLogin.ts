import { useNavigate } from 'react-router';
import { session } from '../../api/session';
import { landingPathFor } from '../../app/routes';

/** Stores the session and goes to Servers (servers.view or admin) or Account. */
export function useCompleteLogin(): (token: string, scopes: string[]) => void {
  const navigate = useNavigate();
  return (token, scopes) => {
    session.login(token, scopes);
    void navigate(landingPathFor(scopes), { replace: true });
  };
}
