/**
 * The file manager's uploads: resumable, through the tus protocol (docs/files.md § Resumable uploads) with
 * tus-js-client, to `/proxy/daemon/server/{id}/upload`. Chunks are the panel's `uploadChunkBytes` (below a
 * proxy's body limit); a dropped connection is retried from the daemon's offset, and an upload cut by a page
 * reload resumes when the same file is picked again for the same place (its fingerprint — server, path, size,
 * modification time — is kept in localStorage until it finishes). The multipart `PUT` stays for API clients.
 */
import { Upload, type DetailedError } from 'tus-js-client';
import { ApiError, parseErrorBody } from '../../../api/errors';
import { session } from '../../../api/session';

/** Waits between retries of a failed chunk (tus-js-client asks the offset again before each). */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000];

export interface TusUploadOptions {
  serverId: string;
  /** The final path inside the server folder. */
  path: string;
  file: File | Blob;
  chunkBytes: number;
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * Absolute: the daemon's `Location` is relative (`upload/{id}`), and tus-js-client resolves it against the
 * endpoint as given — a bare path would resolve it against nothing and send the chunks to the wrong place.
 */
const endpointOf = (serverId: string) =>
  new URL(`/proxy/daemon/server/${encodeURIComponent(serverId)}/upload`, window.location.href).href;

/** Which upload a file continues: the same server, place, size and modification time. */
export function fingerprintOf(serverId: string, path: string, file: File | Blob): string {
  const modified = file instanceof File ? file.lastModified : 0;
  return ['hearth-tus', serverId, path, file.size, modified].join('|');
}

/** A tus failure as the app's ApiError (the daemon's catalogue code, or a network error with status 0). */
function apiErrorOf(err: Error, path: string): ApiError {
  const response = (err as DetailedError).originalResponse;
  const status = response?.getStatus() ?? 0;
  if (status === 401) session.logout('timeout');
  let body: unknown = undefined;
  try {
    body = JSON.parse(response?.getBody() ?? '');
  } catch {
    body = undefined;
  }
  const parsed = parseErrorBody(body);
  const record = {
    url: path,
    method: (err as DetailedError).originalRequest?.getMethod() ?? 'PATCH',
    headers: {},
  };
  return new ApiError(status, parsed.code, parsed.metadata, record, parsed.msg ?? err.message);
}

/** Uploads one file, resuming an earlier attempt of the same file to the same place if one was cut. */
export async function tusUpload(options: TusUploadOptions): Promise<void> {
  const { serverId, path, file, chunkBytes, onProgress } = options;
  const endpoint = endpointOf(serverId);
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint,
      chunkSize: chunkBytes,
      retryDelays: RETRY_DELAYS,
      metadata: { path, filename: path.split('/').at(-1) ?? 'file' },
      fingerprint: async () => fingerprintOf(serverId, path, file),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // The session's token at each request (it may be renewed during a long upload).
      onBeforeRequest: (req) => {
        const token = session.get().token;
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onProgress: (loaded, total) => onProgress?.(loaded, total),
      onSuccess: () => resolve(),
      onError: (err) => reject(apiErrorOf(err, endpoint)),
    });
    upload
      .findPreviousUploads()
      .then((previous) => {
        const last = previous.toSorted((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (last) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch(reject);
  });
}
