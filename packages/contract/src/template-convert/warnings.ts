import type { TemplateWarning } from '../templates-api';

export type { TemplateWarning } from '../templates-api';

const messages: Record<TemplateWarning['code'], (names: string[]) => string> = {
  convertedFromV1: () => 'Converted from the PufferPanel 1.x template format',
  conditionalCommands: () => 'Only the unconditional run command was kept; conditional commands were dropped',
  duplicateEnvironment: (names) => `Repeated environment types were dropped: ${names.join(', ')}`,
  unknownProcessor: (names) =>
    `Uses processors Hearth does not run yet: ${names.join(', ')}; installing a server from it will fail`,
};

/** Something an import changed or cannot run; shown in the template list and the editor. */
export function warning(code: TemplateWarning['code'], names?: string[]): TemplateWarning {
  return { code, message: messages[code](names ?? []), ...(names ? { names } : {}) };
}
