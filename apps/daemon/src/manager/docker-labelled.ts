/**
 * Whether the Docker engine holds any container of this daemon (by its servers-dir label), asked with one plain
 * HTTP request on the engine's socket. Boot uses it to leave Dockerode (and its HTTP, tar and protobuf stack)
 * unloaded on a node without such containers: the common case, and a faster start (docs/performance.md
 * § Start-up). No socket, or no answer, counts as none.
 */
import { request } from 'node:http';
import { LABEL_SERVERS_DIR } from '../environment/docker/settings';

const TIMEOUT_MS = 5_000;

export function hasLabelledContainers(socketPath: string, serversDir: string): Promise<boolean> {
  const filters = JSON.stringify({ label: [`${LABEL_SERVERS_DIR}=${serversDir}`] });
  const path = `/containers/json?all=1&limit=1&filters=${encodeURIComponent(filters)}`;
  return new Promise((resolve) => {
    const req = request({ socketPath, path, method: 'GET', timeout: TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        try {
          const list: unknown = JSON.parse(body);
          resolve(res.statusCode === 200 && Array.isArray(list) && list.length > 0);
        } catch {
          resolve(false);
        }
      });
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
