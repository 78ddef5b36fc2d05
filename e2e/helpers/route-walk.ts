/**
 * Every route of the web app's route table (apps/web/src/app/routes.ts) as a concrete path: `:id` filled with a
 * real id of that kind, so a walk (the accessibility scan, the screenshots script) opens real pages, not 404s.
 */
// Read from the table's source (the table module imports the pages, which only the web build can load).
import { routeTable } from '../i18n/fixture';

export interface RouteIds {
  server: string;
  user: string;
  node: string;
  /** A template id; routes needing one are skipped when there is none. */
  template?: string;
}

export interface WalkPath {
  /** The route's name in the table (screenshot file names). */
  name: string;
  path: string;
  /** Opened signed out (login, register, setup…); the rest as the administrator. */
  public: boolean;
}

export function walkPaths(ids: RouteIds): WalkPath[] {
  const out: WalkPath[] = [];
  for (const route of routeTable()) {
    const kind = /^\/(server|user|node|template)\/:id$/.exec(route.path)?.[1] as keyof RouteIds | undefined;
    const id = kind ? ids[kind] : '';
    if (kind && !id) continue;
    out.push({
      name: route.name,
      path: kind ? route.path.replace(':id', encodeURIComponent(id ?? '')) : route.path,
      public: route.public,
    });
  }
  return out;
}
