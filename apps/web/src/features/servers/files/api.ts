/**
 * File calls through the panel's daemon proxy (docs/files.md), all through the one client (api/client.ts), so
 * an expired session ends the same way in the file editor as anywhere else. Folder listings go over the live
 * socket instead (`useFolder`); downloads are plain links the browser saves itself (no copy held in memory).
 */
import type { ArchiveResponse, ExtractReport, FileCopyReport, FileSearchResult } from '@hearth/contract';
import { api } from '../../../api/client';
import { encodePath } from './file-model';

const base = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}`;
export const fileUrl = (serverId: string, path: string) => `${base(serverId)}/file/${encodePath(path)}`;

/**
 * Streams one file up as multipart field `file`; `onProgress(loaded, total)` follows the request body.
 * Rejects with an ApiError carrying the daemon's catalogue code.
 */
export function uploadFile(
  serverId: string,
  path: string,
  file: Blob,
  onProgress?: (loaded: number, total: number) => void,
): Promise<void> {
  const form = new FormData();
  form.append('file', file, baseNameOf(path));
  return api.upload('PUT', fileUrl(serverId, path), form, file.size, onProgress);
}

const baseNameOf = (path: string) => path.split('/').at(-1) ?? 'file';

export const filesApi = {
  readText: async (serverId: string, path: string) => (await api.blob(fileUrl(serverId, path))).text(),
  /** The raw content of a file (image preview). */
  readBlob: (serverId: string, path: string) => api.blob(fileUrl(serverId, path)),
  createFolder: (serverId: string, path: string) => api.put<void>(`${fileUrl(serverId, path)}?folder=true`),
  createFile: (serverId: string, path: string) => uploadFile(serverId, path, new Blob([])),
  saveText: (serverId: string, path: string, text: string) => uploadFile(serverId, path, new Blob([text])),
  remove: (serverId: string, path: string) => api.delete<void>(fileUrl(serverId, path)),
  archive: (serverId: string, destination: string, sources: string[]) =>
    api.post<ArchiveResponse>(`${base(serverId)}/archive/${encodePath(destination)}`, sources),
  /** Rename or move (docs/files.md § Rename, move, copy, permissions); 409 ErrFileExists unless `overwrite`. */
  move: (serverId: string, from: string, to: string, overwrite = false) =>
    api.post<void>(`${base(serverId)}/move`, { from, to, overwrite }),
  copy: (serverId: string, from: string, to: string, overwrite = false) =>
    api.post<FileCopyReport>(`${base(serverId)}/copy`, { from, to, overwrite }),
  chmod: (serverId: string, path: string, mode: number) =>
    api.post<void>(`${base(serverId)}/chmod`, { path, mode }),
  /** Names below `folder` containing `query` (or matching it as a glob with `*`/`?`). */
  search: (serverId: string, folder: string, query: string) =>
    api.get<FileSearchResult>(
      `${base(serverId)}/search?q=${encodeURIComponent(query)}&path=${encodeURIComponent(folder)}`,
    ),
  extract: (serverId: string, archive: string, destination: string) =>
    api.get<ExtractReport>(
      `${base(serverId)}/extract/${encodePath(archive)}?destination=${encodeURIComponent(destination)}`,
    ),
};
