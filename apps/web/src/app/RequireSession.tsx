import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../api/useSession';
import { LOGIN_PATH } from './routes';

/** Every non-public route needs a session token; otherwise the user goes to the login page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname }} />;
  return children;
}
