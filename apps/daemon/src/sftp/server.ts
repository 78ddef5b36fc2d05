/**
 * The daemon's SFTP server (ssh2): password logins as `email|serverId` or
 * `email#serverId`, checked by the panel; sessions rooted in the server's sandbox. Failed logins are limited
 * per client address and per account. Open connections re-check their login with the panel every
 * `sftp.recheckMs` (password changed, access or sftpServer removed → the connection ends) and end at once
 * when the server is deleted on this daemon.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import ssh2, { type AuthContext, type Connection } from 'ssh2';
import type { Logger } from 'pino';
import type { ServerManager } from '../manager/manager';
import { loadHostKey } from './host-key';
import { LoginLimiter } from './login-limiter';
import { PanelUnreachable, type SftpAuthenticator, type SftpGrant } from './panel-auth';
import { SftpSession } from './session';
import { sftpRecorder, type SftpEventSink } from './activity';

export interface SftpSettings {
  host: string;
  port: number;
  dataDir: string;
  recheckMs: number;
  failuresPerMinute: number;
}

export interface RunningSftp {
  port: number;
  close(): Promise<void>;
}

interface Login {
  grant: SftpGrant;
  username: string;
  password: string;
}

function accountOf(username: string): string {
  return username.replace(/(\||%7[cC]|#)[^|#%]*$/, '').toLowerCase();
}

export async function startSftp(
  settings: SftpSettings,
  manager: ServerManager,
  authenticate: SftpAuthenticator,
  log: Logger,
  events?: SftpEventSink,
): Promise<RunningSftp> {
  const limiter = new LoginLimiter(settings.failuresPerMinute);
  const clients = new Set<Connection>();

  const authenticateClient = async (ctx: AuthContext, ip: string): Promise<Login | null> => {
    if (ctx.method !== 'password') return null;
    const keys = [`ip:${ip}`, `account:${accountOf(ctx.username)}`];
    if (keys.some((k) => limiter.blocked(k))) return null;
    try {
      const grant = await authenticate(ctx.username, ctx.password);
      manager.get(grant.serverId); // a server this daemon does not hold cannot be entered
      limiter.reset(keys[1] ?? '');
      return { grant, username: ctx.username, password: ctx.password };
    } catch (err) {
      if (err instanceof PanelUnreachable) {
        // Fail closed, but an outage is nobody's wrong password: counting it would lock accounts and addresses
        // out for a minute after the panel is back.
        log.warn(
          { ip, user: ctx.username, cause: err.reason },
          'sftp login refused: the panel cannot be reached',
        );
        return null;
      }
      for (const key of keys) limiter.fail(key);
      log.info({ ip, user: ctx.username, err: (err as Error).message }, 'sftp login refused');
      return null;
    }
  };

  // Our own listener hands sockets to ssh2, so that a session can cork its connection's socket. No Nagle: the
  // small STATUS replies to an upload's WRITEs would otherwise wait for the previous segment's ACK while the
  // client holds its 64 requests (put 76–128 MB/s with Nagle, 115–203 without, loopback).
  const sockets = new Map<string, Socket>();
  const tcp = createServer({ noDelay: true }, (socket) => {
    const key = `${socket.remoteAddress}|${socket.remotePort}`;
    sockets.set(key, socket);
    socket.once('close', () => sockets.delete(key));
    server.injectSocket(socket);
  });
  const server = new ssh2.Server({ hostKeys: [await loadHostKey(settings.dataDir)] }, (client, info) => {
    clients.add(client);
    const socket = sockets.get(`${info.ip}|${info.port}`);
    // Replies written in one go leave in one writev, not one syscall per SSH packet.
    const together = (replies: () => void) => {
      socket?.cork();
      try {
        replies();
      } finally {
        socket?.uncork();
      }
    };
    let login: Login | null = null;
    let recheck: NodeJS.Timeout | null = null;
    const end = () => {
      if (recheck) clearInterval(recheck);
      client.end();
    };
    client.on('authentication', (ctx) => {
      void authenticateClient(ctx, info.ip).then((result) => {
        if (!result) return ctx.reject(['password']);
        login = result;
        ctx.accept();
      });
    });
    client.on('ready', () => {
      recheck = setInterval(() => {
        if (!login) return;
        authenticate(login.username, login.password).then(
          (grant) => {
            if (login) login.grant = grant;
          },
          () => end(),
        );
      }, settings.recheckMs);
      client.on('session', (accept) => {
        accept().on('sftp', (acceptSftp) => {
          const current = login;
          if (!current) return;
          const sftp = acceptSftp();
          const recorder = sftpRecorder(events, () => current.grant, info.ip);
          recorder.session('sftp.session.opened');
          sftp.on('close', () => recorder.session('sftp.session.closed'));
          new SftpSession(sftp, {
            sandbox: () => {
              try {
                return manager.get(current.grant.serverId).sandbox;
              } catch (err) {
                end(); // the server was deleted: the session ends
                throw err;
              }
            },
            permissions: () => current.grant.permissions,
            together,
            record: (change) => recorder.change(change),
          });
        });
      });
    });
    client.on('error', (err) => log.debug({ err }, 'sftp client error'));
    client.on('close', () => {
      if (recheck) clearInterval(recheck);
      clients.delete(client);
    });
  });

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(settings.port, settings.host, () => resolve());
  });
  return {
    port: (tcp.address() as AddressInfo).port,
    close: async () => {
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
