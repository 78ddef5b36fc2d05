/**
 * THE HTTP client of the web app: JSON calls, raw text and binary bodies, uploads with progress. Every call
 * gets the same bearer rule, and every failure goes through `failure`: any 401 ends the session (the login
 * page then shows the timed-out message) and the body's catalogue error becomes an ApiError (docs/errors.md).
 */
import { ApiError, parseErrorBody, type RequestRecord } from './errors';
import { session } from './session';

export interface RequestOptions {
  signal?: AbortSignal;
}

/**
 * The bearer header goes to /api and /proxy (docs/api.md § Session), and to the two /auth calls that act on
 * the current session, so they work whether the panel reads the header or the cookie.
 */
function needsBearer(path: string): boolean {
  return (
    path.startsWith('/api') || path.startsWith('/proxy') || path === '/auth/reauth' || path === '/auth/logout'
  );
}

interface Outgoing {
  /** Raw bodies take whatever the file is; everything else answers JSON (or nothing). */
  accept?: string;
  contentType?: string;
  /** A text body, kept for the dump (uploads and binary bodies are not). */
  text?: string;
}

/** What is sent, kept for the error-details overlay (docs/errors.md; secrets masked there). */
function requestRecord(method: string, path: string, out: Outgoing = {}): RequestRecord {
  const headers: Record<string, string> = { Accept: out.accept ?? 'application/json' };
  const token = session.get().token;
  if (token && needsBearer(path)) headers.Authorization = `Bearer ${token}`;
  if (out.contentType) headers['Content-Type'] = out.contentType;
  return out.text === undefined
    ? { url: path, method, headers }
    : { url: path, method, headers, body: out.text };
}

/** A body as the panel sent it: JSON when it parses, else the text itself (no catalogue code then). */
function decode(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The one mapping of a failed answer, for fetch and XHR alike. */
function failure(status: number, body: unknown, record: RequestRecord): ApiError {
  // Any 401 on a logged-in session ends it; the login page shows the timed-out message
  // (docs/api.md § Session).
  if (status === 401) session.logout('timeout');
  const parsed = parseErrorBody(body);
  return new ApiError(status, parsed.code, parsed.metadata, record, parsed.msg);
}

/** Sends one request; resolves with the response when it is a success, rejects with an ApiError otherwise. */
async function send(
  record: RequestRecord,
  body: BodyInit | undefined,
  options: RequestOptions,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(record.url, {
      method: record.method,
      headers: record.headers,
      body,
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, undefined, {}, record, err instanceof Error ? err.message : undefined);
  }
  if (res.ok) return res;
  throw failure(res.status, decode(await res.text()), record);
}

/** A JSON call: the body (if any) is sent as JSON, the answer parsed (undefined when empty). */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const record = requestRecord(
    method,
    path,
    text === undefined ? {} : { contentType: 'application/json', text },
  );
  const res = await send(record, text, options);
  return decode(await res.text()) as T;
}

/**
 * An upload through XMLHttpRequest, the only browser API that reports the request body's progress;
 * `onProgress(loaded, total)` follows it (`total` falls back to `size` when the browser cannot tell).
 */
function upload(
  method: string,
  path: string,
  body: FormData,
  size: number,
  onProgress: (loaded: number, total: number) => void,
): Promise<void> {
  const record = requestRecord(method, path);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    for (const [name, value] of Object.entries(record.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : size);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(failure(xhr.status, decode(xhr.responseText), record));
    xhr.onerror = () => reject(new ApiError(0, undefined, {}, record));
    xhr.send(body);
  });
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
  /** POSTs `text` as the raw `text/plain` body (the console command, docs/api.md); the answer is ignored. */
  postText: async (path: string, text: string, options: RequestOptions = {}): Promise<void> => {
    await send(requestRecord('POST', path, { contentType: 'text/plain', text }), text, options);
  },
  /** GETs a raw body (a file's content, a theme archive). */
  blob: async (path: string, options: RequestOptions = {}): Promise<Blob> =>
    (await send(requestRecord('GET', path, { accept: '*/*' }), undefined, options)).blob(),
  /** Sends `form` (multipart) with upload progress. */
  upload: (
    method: 'PUT' | 'POST',
    path: string,
    form: FormData,
    size: number,
    onProgress: (loaded: number, total: number) => void = () => undefined,
  ) => upload(method, path, form, size, onProgress),
};
