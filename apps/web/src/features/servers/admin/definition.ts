import { templateSchema, type ServerDefinitionView, type Template } from '@hearth/contract';
import { api } from '../../../api/client';

/** The definition as the daemon stores it; keys the editor does not know (e.g. tasks) are kept on save. */
export type RawDefinition = Record<string, unknown> & { run?: Record<string, unknown> };

export type AutoFlag = 'autostart' | 'autorestart' | 'autorecover';
export const autoFlags: AutoFlag[] = ['autostart', 'autorestart', 'autorecover'];

const path = (id: string) => `/proxy/daemon/server/${encodeURIComponent(id)}`;

export async function loadDefinition(id: string): Promise<RawDefinition> {
  const { id: _id, ...definition } = await api.get<ServerDefinitionView>(path(id));
  return definition;
}

/** Writes the definition, then has the daemon reload it. */
export async function saveDefinition(id: string, definition: RawDefinition): Promise<void> {
  await api.post<void>(path(id), definition);
  await api.post<void>(`${path(id)}/reload`);
}

/** Load the definition, change one flag, save, reload. */
export async function setAutoFlag(id: string, flag: AutoFlag, on: boolean): Promise<void> {
  const definition = await loadDefinition(id);
  await saveDefinition(id, { ...definition, run: { ...definition.run, [flag]: on } });
}

export function toTemplate(definition: RawDefinition): Template {
  return templateSchema.parse(definition);
}

/** The edited template over the stored definition, so what the editor does not show survives. */
export function mergeTemplate(stored: RawDefinition, edited: Template): RawDefinition {
  return { ...stored, ...edited };
}
