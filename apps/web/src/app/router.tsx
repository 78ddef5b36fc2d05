import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { RequireSession } from './RequireSession';
import { RouteGuard } from './RouteGuard';
import { HOME_PATH, NOT_FOUND_PATH, routes, type AppRoute } from './routes';
import { PublicLayout } from './shell/PublicLayout';
import { Shell } from './shell/Shell';

/**
 * Each page renders inside a `data-route` marker naming its route-table row, so a browser test can tell that
 * a route really rendered its page (and not an error element or another page after a redirect).
 */
function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    handle: { titleKey: route.titleKey },
    lazy: async () => {
      const Page = (await route.page()).default;
      const Component = () => (
        <RouteGuard route={route}>
          <div data-route={route.name} style={{ display: 'contents' }}>
            <Page />
          </div>
        </RouteGuard>
      );
      return { Component };
    },
  };
}

/** The router is generated from the one route table; layouts and redirects wrap it. */
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
