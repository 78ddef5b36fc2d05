/**
 * File calls through the panel's daemon proxy (SPEC §7 Files). Uploads use XHR for progress events. Folder
 * listings go over the live socket instead (`useFolder`).
 */
import { api } from '../../../api/client';
import { ApiError, parseErrorBody } from '../../../api/errors';
import { session } from '../../../api/session';
import { encodePath } from './file-model';

const base = (serverId: string) => `/proxy/daemon/server/${encodeURIComponent(serverId)}`;
export const fileUrl = (serverId: string, path: string) => `${base(serverId)}/file/${encodePath(path)}`;

function authHeader(): Record<string, string> {
  const token = session.get().token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The raw content of a file (editor, image preview). */
async function fetchBlob(serverId: string, path: string): Promise<Blob> {
  const url = fileUrl(serverId, path);
  const res = await fetch(url, { headers: authHeader() });
  if (!res.ok) {
    const parsed = parseErrorBody(await res.json().catch(() => undefined));
    throw new ApiError(
      res.status,
      parsed.code,
      parsed.metadata,
      { url, method: 'GET', headers: {} },
      parsed.msg,
    );
  }
  return res.blob();
}

/**
 * Streams one file up as multipart field `file`; `onProgress(loaded, total)` follows the request body.
 * Rejects with an ApiError carrying the daemon's catalogue code.
 */
export function uploadFile(
  serverId: string,
  path: string,
  file: Blob,
  onProgress: (loaded: number, total: number) => void = () => undefined,
): Promise<void> {
  const url = fileUrl(serverId, path);
  const form = new FormData();
  form.append('file', file, baseNameOf(path));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [k, v] of Object.entries(authHeader())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      const parsed = parseErrorBody(body);
      reject(
        new ApiError(
          xhr.status,
          parsed.code,
          parsed.metadata,
          { url, method: 'PUT', headers: {} },
          parsed.msg,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, undefined, {}, { url, method: 'PUT', headers: {} }));
    xhr.send(form);
  });
}

const baseNameOf = (path: string) => path.split('/').at(-1) ?? 'file';

export const filesApi = {
  readText: async (serverId: string, path: string) => (await fetchBlob(serverId, path)).text(),
  readBlob: fetchBlob,
  createFolder: (serverId: string, path: string) => api.put<void>(`${fileUrl(serverId, path)}?folder=true`),
  createFile: (serverId: string, path: string) => uploadFile(serverId, path, new Blob([])),
  saveText: (serverId: string, path: string, text: string) => uploadFile(serverId, path, new Blob([text])),
  remove: (serverId: string, path: string) => api.delete<void>(fileUrl(serverId, path)),
  archive: (serverId: string, destination: string, sources: string[]) =>
    api.post<{ path: string }>(`${base(serverId)}/archive/${encodePath(destination)}`, sources),
  extract: (serverId: string, archive: string, destination: string) =>
    api.get<unknown>(
      `${base(serverId)}/extract/${encodePath(archive)}?destination=${encodeURIComponent(destination)}`,
    ),
};
