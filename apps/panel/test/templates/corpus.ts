import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The PufferPanel sample templates live beside the repository (../shared), not in it: they are another
 * project's files. HEARTH_TEMPLATE_CORPUS points elsewhere when the layout differs.
 */
export const corpusDir = resolve(
  process.env.HEARTH_TEMPLATE_CORPUS ??
    join(import.meta.dirname, '../../../../../shared/corpus/pufferpanel-templates'),
);

export interface CorpusSample {
  generation: string;
  name: string;
  text: string;
}

export function corpusSamples(): CorpusSample[] {
  if (!existsSync(corpusDir)) throw new Error(`template corpus not found at ${corpusDir}`);
  return ['v1', 'v2.6'].flatMap((generation) =>
    readdirSync(join(corpusDir, generation))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({
        generation,
        name: file.replace(/\.json$/, ''),
        text: readFileSync(join(corpusDir, generation, file), 'utf8'),
      })),
  );
}
