import { DirectionProvider, useDirection, type Direction } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RTL_LOCALES } from './locales';

export const directionOf = (locale: string): Direction => (RTL_LOCALES.has(locale) ? 'rtl' : 'ltr');

/** Keeps Mantine's direction (and `<html dir>`) in step with the language, so ar_SA/he_IL mirror the layout. */
function FollowLanguage() {
  const { i18n } = useTranslation();
  const { setDirection } = useDirection();
  const dir = directionOf(i18n.language);
  useEffect(() => setDirection(dir), [dir, setDirection]);
  return null;
}

export function LocaleDirectionProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <DirectionProvider initialDirection={directionOf(i18n.language)} detectDirection={false}>
      <FollowLanguage />
      {children}
    </DirectionProvider>
  );
}

/** The physical side where the reading direction ends (`right` in LTR): tooltips beside the sidebar, toasts. */
export function useEndSide(): 'left' | 'right' {
  return useDirection().dir === 'rtl' ? 'left' : 'right';
}
