import { ApiError, parseErrorBody, type RequestRecord } from './errors';
import { session } from './session';

type Body = unknown;

export interface RequestOptions {
  /** Form body (`application/x-www-form-urlencoded`) instead of JSON. */
  form?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The bearer header goes to /api and /proxy (SPEC §7), and to the two /auth calls that act on the
 * current session, so they work whether the panel reads the header or the cookie.
 */
function needsBearer(path: string): boolean {
  return (
    path.startsWith('/api') || path.startsWith('/proxy') || path === '/auth/reauth' || path === '/auth/logout'
  );
}

function buildRequest(method: string, path: string, body: Body, options: RequestOptions): RequestRecord {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = session.get().token;
  if (token && needsBearer(path)) headers.Authorization = `Bearer ${token}`;
  let encoded: string | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    encoded = new URLSearchParams(options.form).toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    encoded = JSON.stringify(body);
  }
  return { url: path, method, headers, body: encoded };
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T>(
  method: string,
  path: string,
  body?: Body,
  options: RequestOptions = {},
): Promise<T> {
  const record = buildRequest(method, path, body, options);
  let res: Response;
  try {
    res = await fetch(path, { method, headers: record.headers, body: record.body, signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, undefined, {}, record, err instanceof Error ? err.message : undefined);
  }
  const data = await readBody(res);
  if (res.ok) return data as T;
  // Any 401 on a logged-in session ends it; the login page shows the timed-out message (SPEC §4, §8).
  if (res.status === 401 && session.get().token) session.logout('timeout');
  const parsed = parseErrorBody(data);
  throw new ApiError(res.status, parsed.code, parsed.metadata, record, parsed.msg);
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: Body, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: Body, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
