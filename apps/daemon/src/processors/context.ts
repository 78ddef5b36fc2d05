/** What a processor may use: the sandbox for files, the environment for commands, and daemon settings. */
import type { DaemonMessageCode, DaemonMessageParams } from '@hearth/contract/daemon-messages';
import type { ProcessSpec, Environment, ExitState } from '../environment/environment';
import type { ExtractOptions } from '../filesystem/archive/extract';
import type { Sandbox } from '../filesystem/sandbox';
import type { HttpSettings } from './http-client';

export interface UpstreamSettings {
  mojangManifestUrl: string;
  forgeMavenUrl: string;
  spongeApiUrl: string;
  fabricMetaUrl: string;
}

export interface ProcessorContext {
  sandbox: Sandbox;
  /** Writes a daemon line by code, which the web app shows in the reader's language (contract daemon-messages). */
  say<C extends DaemonMessageCode>(code: C, params: DaemonMessageParams<C>): void;
  /** Runs one command line in the server folder through the server's environment. */
  runCommand(line: string): Promise<ExitState>;
  http: HttpSettings;
  upstream: UpstreamSettings;
  /** The operator's `files.maxExtract*` limits and the data-dir staging folder, as for the file API. */
  extract: ExtractOptions;
  /** Aborted when the user kills the server during the phase. */
  signal: AbortSignal;
}

export type { ProcessSpec, Environment };
