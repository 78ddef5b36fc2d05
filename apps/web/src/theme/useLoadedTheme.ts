import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { injectThemeCss, themeFromArchive, type LoadedTheme } from './loader';

export const themeKeys = { byName: (name: string) => ['theme', name] as const };

async function fetchTheme(name: string): Promise<LoadedTheme> {
  const archive = await api.blob(`/theme/${encodeURIComponent(name)}.tar`);
  return themeFromArchive(name, new Uint8Array(await archive.arrayBuffer()));
}

/** Downloads and parses the theme archive once per name; its CSS is injected while it is active. */
export function useLoadedTheme(name: string): LoadedTheme | undefined {
  const { data } = useQuery({
    queryKey: themeKeys.byName(name),
    queryFn: () => fetchTheme(name),
    enabled: name !== '',
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  useEffect(() => {
    injectThemeCss(data?.css ?? '');
  }, [data]);
  return data;
}
