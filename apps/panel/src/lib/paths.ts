import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { PanelConfig } from '../config/schema';

/** Default locations inside the repository, used when the config leaves them empty. */
const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

export function themesDir(config: PanelConfig): string {
  return config.panel.themesDir ? resolve(config.panel.themesDir) : here('../../themes');
}

export function webDir(config: PanelConfig): string {
  return config.panel.webDir ? resolve(config.panel.webDir) : here('../../../web/dist');
}

export function dataDir(config: PanelConfig): string {
  return resolve(config.panel.dataDir);
}
