import { flattenEnvelope, type ActivityAction } from '@hearth/contract';
import type { Identity, ServerAccess } from '../../app-types';
import type { ActivityService } from './activity.service';
import { actorOf } from './actor';

/** The socket messages that change state, and their actions (the HTTP rows' actions: activity-routes.ts). */
const FRAME_ACTIONS: Partial<Record<string, ActivityAction>> = {
  start: 'server.power.start',
  stop: 'server.power.stop',
  kill: 'server.power.kill',
  restart: 'server.power.restart',
  install: 'server.install',
  console: 'server.console.command',
};

/**
 * Records a socket message the panel let through to the daemon (its flag checked; docs/activity.md § Proxied
 * calls): the web console sends commands and power actions over the socket, not through the HTTP rows.
 */
export function recordSocketFrame(
  activity: ActivityService,
  text: string,
  who: { identity: Identity; access: ServerAccess; ip: string },
): void {
  let message: unknown;
  try {
    message = flattenEnvelope(JSON.parse(text));
  } catch {
    return; // checkInbound has refused it already
  }
  const { type, command } = message as { type?: unknown; command?: unknown };
  const action = typeof type === 'string' ? FRAME_ACTIONS[type] : undefined;
  if (!action) return;
  const details =
    action === 'server.console.command' ? { command: String(command), via: 'socket' } : { via: 'socket' };
  void activity.record({
    actor: actorOf(who.identity, who.ip),
    action,
    serverId: who.access.serverId,
    nodeId: who.access.nodeId,
    details,
  });
}
