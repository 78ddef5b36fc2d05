import { api } from './client';
import type { LiveHttp } from './live-socket';

/** The live socket's HTTP fallback; the console command goes as the raw `text/plain` body (docs/api.md). */
export const liveHttp: LiveHttp = {
  get: (path) => api.get<unknown>(path),
  post: (path, body) => (body === undefined ? api.post<unknown>(path) : api.postText(path, body)),
};
