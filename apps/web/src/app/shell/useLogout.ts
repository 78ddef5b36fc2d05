import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { session } from '../../api/session';
import { LOGIN_PATH } from '../routes';

/** Revokes the session on the panel (best effort), forgets it locally and goes to the login page. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const done = () => {
      session.logout('user');
      queryClient.removeQueries({
        predicate: (q) => q.queryKey[0] !== 'config' && q.queryKey[0] !== 'theme',
      });
      void navigate(LOGIN_PATH);
    };
    // Even if the panel cannot be reached, the local session ends.
    api.post('/auth/logout').then(done, done);
  };
}
