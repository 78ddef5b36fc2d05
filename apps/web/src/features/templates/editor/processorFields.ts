import type { KnownProcessorType } from '@hearth/contract';

/** How the overlay edits each field of a processor type. */
export type FieldKind = 'text' | 'textarea' | 'list' | 'switch' | 'releaseType';

export const processorFields: Record<KnownProcessorType, readonly [field: string, kind: FieldKind][]> = {
  download: [['files', 'list']],
  command: [['commands', 'list']],
  alterfile: [
    ['file', 'text'],
    ['regex', 'switch'],
    ['search', 'text'],
    ['replace', 'text'],
  ],
  writefile: [
    ['target', 'text'],
    ['text', 'textarea'],
  ],
  move: [
    ['source', 'text'],
    ['target', 'text'],
  ],
  mkdir: [['target', 'text']],
  mojangdl: [
    ['version', 'text'],
    ['target', 'text'],
  ],
  forgedl: [
    ['version', 'text'],
    ['filename', 'text'],
  ],
  spongeforgedl: [['releaseType', 'releaseType']],
  fabricdl: [['targetFile', 'text']],
  extract: [
    ['source', 'text'],
    ['destination', 'text'],
  ],
  archive: [
    ['source', 'list'],
    ['destination', 'text'],
  ],
};

/** A one-line summary for the list: the type plus its first field's value. */
export function describeProcessor(step: { type: string; [field: string]: unknown }): string {
  const first = Object.entries(step).find(([key]) => key !== 'type')?.[1];
  const detail = Array.isArray(first) ? first.join('; ') : typeof first === 'string' ? first : '';
  return detail ? `${step.type}: ${detail}` : step.type;
}
