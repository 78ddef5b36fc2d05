import type { Command } from 'commander';
import { loadConfig, type PanelConfig } from '@hearth/panel';

/** The global `--config <file>` option, read from the root command. */
export function configFlag(command: Command): string | undefined {
  const opts = command.optsWithGlobals<{ config?: string }>();
  return opts.config;
}

export function panelConfigOf(command: Command): PanelConfig {
  return loadConfig({ path: configFlag(command) });
}
