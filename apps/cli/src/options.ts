import type { Command } from 'commander';
import type { PanelConfig } from '@hearth/panel';

/** The global `--config <file>` option, read from the root command. */
export function configFlag(command: Command): string | undefined {
  const opts = command.optsWithGlobals<{ config?: string }>();
  return opts.config;
}

/** Loads the panel only when a command runs, so `--help` and typos answer without importing it. */
export async function panelConfigOf(command: Command): Promise<PanelConfig> {
  const { loadConfig } = await import('@hearth/panel');
  return loadConfig({ path: configFlag(command) });
}
