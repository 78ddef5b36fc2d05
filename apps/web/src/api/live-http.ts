import { api } from './client';
import { ApiError, parseErrorBody } from './errors';
import type { LiveHttp } from './live-socket';
import { session } from './session';

/**
 * The console command goes as the raw `text/plain` body (SPEC §7), which the JSON client cannot send; the
 * rest uses the shared client (bearer header, 401 → logout, catalogued errors).
 */
async function postText(path: string, text: string): Promise<unknown> {
  const headers: Record<string, string> = { 'Content-Type': 'text/plain', Accept: 'application/json' };
  const token = session.get().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method: 'POST', headers, body: text });
  if (res.ok) return undefined;
  if (res.status === 401 && token) session.logout('timeout');
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined; // a bare error status without a JSON body: no catalogue code
  }
  const parsed = parseErrorBody(body);
  throw new ApiError(
    res.status,
    parsed.code,
    parsed.metadata,
    { url: path, method: 'POST', headers },
    parsed.msg,
  );
}

export const liveHttp: LiveHttp = {
  get: (path) => api.get<unknown>(path),
  post: (path, body) => (body === undefined ? api.post<unknown>(path) : postText(path, body)),
};
