import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { configQuery } from '../api/queries';

export interface RouteHandle {
  titleKey: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'titleKey' in handle;
}

/** The title key of the deepest matched route of the route table. */
function useRouteTitleKey(): string | undefined {
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => isRouteHandle(m.handle))?.handle;
  return isRouteHandle(handle) ? handle.titleKey : undefined;
}

/** Keeps the document title in step with the route and the branding. */
export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const key = useRouteTitleKey();
  const brand = useQuery(configQuery).data?.branding.name || t('app.name');
  useEffect(() => {
    document.title = key ? `${t(key)} · ${brand}` : brand;
  }, [key, brand, t]);
}
