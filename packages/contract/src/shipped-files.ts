/**
 * The files Hearth reads at run time besides its code: the built web app, themes, starter templates, e-mail texts
 * and the holder's C source. Running from source they are found in the repository; in the production build they
 * are copied to `share/` beside the bundle (scripts/build.mjs, docs/adr/0006-production-build.md), so a package
 * can move the whole tree anywhere. Every lookup of such a file goes through `shippedPath`. Node only (the web
 * app never imports this file).
 */
import { fileURLToPath } from 'node:url';

/** Each shipped file or folder: where it lives in the repository, and where the build puts it under `share/`. */
export const shippedFiles = {
  web: { repo: 'apps/web/dist', share: 'web' },
  themes: { repo: 'apps/panel/themes', share: 'themes' },
  templates: { repo: 'apps/panel/templates', share: 'templates' },
  mailLocales: { repo: 'apps/panel/src/modules/email/locales', share: 'mail-locales' },
  holderSource: {
    repo: 'apps/daemon/src/environment/holder/hearth-holder.c',
    share: 'holder/hearth-holder.c',
  },
} as const;

export type ShippedFile = keyof typeof shippedFiles;

/** Defined as `true` by the production build (esbuild `define`); absent when the sources run. */
declare const __HEARTH_BUNDLE__: boolean | undefined;

/** True in the production build: this code runs from `<root>/lib/*.js` and its files are in `<root>/share`. */
export function runsFromBuild(): boolean {
  return typeof __HEARTH_BUNDLE__ !== 'undefined' && __HEARTH_BUNDLE__;
}

/** The absolute path of a shipped file or folder. */
export function shippedPath(name: ShippedFile): string {
  const entry = shippedFiles[name];
  // Source: this file is packages/contract/src/shipped-files.ts. Build: every chunk sits in <root>/lib/.
  const url = runsFromBuild()
    ? new URL(`../share/${entry.share}`, import.meta.url)
    : new URL(`../../../${entry.repo}`, import.meta.url);
  return fileURLToPath(url);
}
