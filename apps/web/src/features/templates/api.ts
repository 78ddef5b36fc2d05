import { queryOptions } from '@tanstack/react-query';
import type {
  ImportList,
  ImportResult,
  StoredTemplate,
  TemplateSummary,
} from '@hearth/contract/templates-api';
import type { Template } from '@hearth/contract';
import { api } from '../../api/client';

export const templateKeys = {
  all: ['templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  one: (id: string) => [...templateKeys.all, 'one', id] as const,
  importable: () => [...templateKeys.all, 'importable'] as const,
};

export const templatesQuery = queryOptions({
  queryKey: templateKeys.list(),
  queryFn: () => api.get<TemplateSummary[]>('/api/templates'),
});

export const templateQuery = (id: string) =>
  queryOptions({
    queryKey: templateKeys.one(id),
    queryFn: () => api.get<StoredTemplate>(`/api/templates/${encodeURIComponent(id)}`),
  });

/** The detailed import list (sources, warnings, problems); `POST /api/templates/import` gives only names. */
export const importableQuery = queryOptions({
  queryKey: templateKeys.importable(),
  queryFn: () => api.get<ImportList>('/api/templates/import/status'),
  staleTime: 0,
});

export const templatesApi = {
  /** `overwrite: false` is refused with 409 ErrDuplicateTemplateName when the id is stored (docs/api.md). */
  import: (name: string, source: string, overwrite: boolean) =>
    api.post<ImportResult>(
      `/api/templates/import/${encodeURIComponent(name)}?source=${encodeURIComponent(source)}&overwrite=${overwrite}`,
    ),
  save: (id: string, template: Template) =>
    api.put<StoredTemplate>(`/api/templates/${encodeURIComponent(id)}`, template),
  delete: (id: string) => api.delete<void>(`/api/templates/${encodeURIComponent(id)}`),
};
