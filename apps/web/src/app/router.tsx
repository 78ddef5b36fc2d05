import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { RequireSession } from './RequireSession';
import { HOME_PATH, NOT_FOUND_PATH, routes, type AppRoute } from './routes';
import { PublicLayout } from './shell/PublicLayout';
import { Shell } from './shell/Shell';

function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    handle: { titleKey: route.titleKey },
    lazy: async () => ({ Component: (await route.page()).default }),
  };
}

/** The router is generated from the one route table; layouts and redirects wrap it (SPEC §2). */
export function createAppRouter() {
  return createBrowserRouter([
    {
      hydrateFallbackElement: <PageLoader />,
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        { element: <PublicLayout />, children: routes.filter((r) => r.public).map(toRouteObject) },
        {
          element: (
            <RequireSession>
              <Shell />
            </RequireSession>
          ),
          children: routes.filter((r) => !r.public).map(toRouteObject),
        },
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ]);
}
