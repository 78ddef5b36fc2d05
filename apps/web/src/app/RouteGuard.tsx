import type { ReactNode } from 'react';
import { PageLoader } from '../components/PageLoader';
import { NoAccessPage } from '../features/errors/NoAccessPage';
import type { AppRoute } from './routes';
import { useAccess } from './useAccess';

/**
 * The route table's `allowed` rule decides before the page mounts: a user without the right sees the
 * no-access page, not an empty form whose calls the panel then refuses (docs/permissions.md § Web guards).
 */
export function RouteGuard({ route, children }: { route: AppRoute; children: ReactNode }) {
  const access = useAccess();
  if (route.public) return children;
  if (access.pending) return <PageLoader />;
  return route.allowed(access) ? children : <NoAccessPage />;
}
