import type {
  ConsoleResponse,
  FileList,
  ServerMessage,
  StatsResponse,
  StatusResponse,
} from '@hearth/contract';
import { encodePath } from '../features/servers/files/file-model';
import type { LiveHttp, LiveMessage } from './live-socket';

/**
 * One socket message as the equivalent HTTP call (used while the socket is closed or closing); the
 * answer comes back shaped as the event the socket would have sent, if there is one.
 */
export async function overHttp(
  http: LiveHttp,
  serverId: string,
  message: LiveMessage,
): Promise<ServerMessage | undefined> {
  const base = `/proxy/daemon/server/${encodeURIComponent(serverId)}`;
  switch (message.type) {
    case 'stat':
      return { type: 'stat', data: (await http.get(`${base}/stats`)) as StatsResponse };
    case 'status':
      return { type: 'status', data: (await http.get(`${base}/status`)) as StatusResponse };
    case 'replay': {
      const body = (await http.get(`${base}/console?time=${message.data.since}`)) as ConsoleResponse;
      return { type: 'console', data: { logs: body.logs ? [body.logs] : [], epoch: body.epoch } };
    }
    case 'file': {
      const path = encodePath(message.data.path);
      return { type: 'file-list', data: (await http.get(`${base}/file/${path}`)) as FileList };
    }
    case 'console':
      await http.post(`${base}/console`, message.data.command);
      return undefined;
    case 'start':
    case 'stop':
    case 'kill':
    case 'install':
      await http.post(`${base}/${message.type}`);
      return undefined;
  }
}
