import { MantineProvider } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { configQuery, putUserSetting, userSettingsQuery } from '../api/queries';
import { notifyError } from '../api/notify';
import { useSession } from '../api/useSession';
import { accessibleColors, buildMantineTheme } from './mantineTheme';
import { useLoadedTheme } from './useLoadedTheme';

export interface Appearance {
  dark: boolean;
  theme: string;
  available: string[];
  setDark: (dark: boolean) => void;
  setTheme: (name: string) => void;
}

const AppearanceContext = createContext<Appearance | null>(null);

export const DARK_KEY = 'dark';
export const THEME_KEY = 'theme';

function storedDark(): boolean {
  const value = localStorage.getItem(DARK_KEY);
  if (value !== null) return value === 'true';
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

/** Dark mode and theme: per user (user settings) when logged in, local storage otherwise. */
export function AppearanceProvider({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const config = useQuery(configQuery);
  const userSettings = useQuery({ ...userSettingsQuery, enabled: !!token });
  const [dark, setDarkState] = useState(storedDark);
  const [chosenTheme, setChosenTheme] = useState(() => localStorage.getItem(THEME_KEY));

  useEffect(() => {
    if (!userSettings.data) return;
    const byKey = new Map(userSettings.data.map((s) => [s.key, s.value]));
    if (byKey.has('dark')) setDarkState(byKey.get('dark') === 'true');
    if (byKey.get('preferredTheme')) setChosenTheme(byKey.get('preferredTheme') ?? null);
  }, [userSettings.data]);

  const persist = useCallback(
    (userKey: string, localKey: string, value: string) => {
      if (token) putUserSetting(userKey, value).catch(notifyError);
      else localStorage.setItem(localKey, value);
    },
    [token],
  );

  const available = useMemo(() => config.data?.themes.available ?? [], [config.data]);
  const fallback = config.data?.themes.active;
  const theme =
    chosenTheme && available.includes(chosenTheme) ? chosenTheme : (fallback ?? chosenTheme ?? '');
  const loaded = useLoadedTheme(theme);
  const mantineTheme = useMemo(() => buildMantineTheme(loaded?.definition, dark), [loaded, dark]);

  const value = useMemo<Appearance>(
    () => ({
      dark,
      theme,
      available,
      setDark: (next) => {
        setDarkState(next);
        persist('dark', DARK_KEY, String(next));
      },
      setTheme: (name) => {
        setChosenTheme(name);
        persist('preferredTheme', THEME_KEY, name);
      },
    }),
    [dark, theme, available, persist],
  );

  return (
    <AppearanceContext.Provider value={value}>
      <MantineProvider
        theme={mantineTheme}
        forceColorScheme={dark ? 'dark' : 'light'}
        cssVariablesResolver={accessibleColors}
      >
        {children}
      </MantineProvider>
    </AppearanceContext.Provider>
  );
}

export function useAppearance(): Appearance {
  const value = useContext(AppearanceContext);
  if (!value) throw new Error('useAppearance outside AppearanceProvider');
  return value;
}
