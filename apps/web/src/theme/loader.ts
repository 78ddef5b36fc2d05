import { parseThemeJson, type ThemeDefinition } from './colors';
import { parseTar } from './tar';

export interface LoadedTheme {
  name: string;
  definition: ThemeDefinition;
  css: string;
  /** Frees the blob URLs made for the theme's assets. */
  release: () => void;
}

const MIME: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds the theme from an archive's entries: assets become blob URLs replacing their names in the CSS. */
export function themeFromArchive(name: string, archive: Uint8Array): LoadedTheme {
  const entries = parseTar(archive);
  const text = (entry?: { data: Uint8Array }) => (entry ? new TextDecoder().decode(entry.data) : '');
  const definition = parseThemeJson(text(entries.find((e) => e.name === 'theme.json')) || '{}');
  let css = text(entries.find((e) => e.name === 'theme.css'));
  const urls: string[] = [];
  for (const entry of entries) {
    if (entry.name === 'theme.json' || entry.name === 'theme.css') continue;
    const ext = entry.name.split('.').pop()?.toLowerCase() ?? '';
    const url = URL.createObjectURL(
      new Blob([entry.data as BlobPart], { type: MIME[ext] ?? 'application/octet-stream' }),
    );
    urls.push(url);
    css = css.replace(new RegExp(escapeRegExp(entry.name), 'g'), url);
  }
  return { name, definition, css, release: () => urls.forEach((u) => URL.revokeObjectURL(u)) };
}

const STYLE_ID = 'hearth-theme-css';

export function injectThemeCss(css: string): void {
  let style = document.getElementById(STYLE_ID);
  if (!style) {
    style = document.createElement('style');
    style.id = STYLE_ID;
    document.head.appendChild(style);
  }
  style.textContent = css;
}
