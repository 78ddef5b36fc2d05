import { resolve } from 'node:path';
import { shippedPath } from '@hearth/contract/shipped-files';
import type { PanelConfig } from '../config/schema';

/** The shipped themes and web app (the repository's, or the build's share/) when the config leaves them empty. */
export function themesDir(config: PanelConfig): string {
  return config.panel.themesDir ? resolve(config.panel.themesDir) : shippedPath('themes');
}

export function webDir(config: PanelConfig): string {
  return config.panel.webDir ? resolve(config.panel.webDir) : shippedPath('web');
}

export function dataDir(config: PanelConfig): string {
  return resolve(config.panel.dataDir);
}
