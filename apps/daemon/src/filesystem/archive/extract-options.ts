/** One reading of the operator's extract limits and staging folder, for the file API and the extract processor. */
import { join } from 'node:path';
import type { DaemonConfig } from '../../config/schema';
import type { ExtractOptions } from './extract';

export function extractOptionsOf(config: Pick<DaemonConfig, 'files' | 'dataDir'>): ExtractOptions {
  return {
    maxBytes: config.files.maxExtractBytes,
    maxEntries: config.files.maxExtractEntries,
    // `<dataDir>/tmp/extract-*` (0700): the game cannot reach into it (ADR 0002 § Archives).
    stagingDir: join(config.dataDir, 'tmp'),
  };
}
