/**
 * Composition of the alerts module (docs/alerts.md): the repository, the dispatcher with its two channels
 * (signed webhooks, e-mail through the configured provider), the engine fed by the activity log, the watches
 * handed to the nodes (watch-sync.ts), and the service the routes use. `close()` stops timers and drops queued work (the app's onClose calls it).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connect';
import type { ActivityService } from '../activity/activity.service';
import type { NodeLink } from '../../nodes-link/node-link';
import type { NodeEventsPuller } from '../../nodes-link/node-events-pull';
import type { EmailService } from '../email/email.service';
import type { SettingsService } from '../settings/settings.service';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';
import { AlertDispatcher, type Send } from './dispatcher';
import { AlertEngine } from './engine';
import { mailOf, webhookBody } from './payloads';
import { AlertWatchSync } from './watch-sync';
import { postWebhook } from './webhook';
import type { WebhookFormat } from '@hearth/contract';

export interface AlertsModuleDeps {
  db: Db;
  activity: ActivityService;
  email: EmailService;
  settings: SettingsService;
  link: NodeLink;
  /** The outbox pull: each node's page says which watches it holds (watch-sync.ts). */
  nodeEvents: NodeEventsPuller;
  log: () => FastifyBaseLogger;
}

export function createAlerts(deps: AlertsModuleDeps) {
  const repo = new AlertsRepository(deps.db);
  const allowPrivateTargets = async () =>
    (await deps.settings.effective())['panel.alerts.allowPrivateTargets'] === true;
  const send: Send = async (target, event) => {
    if (target.kind === 'email') {
      const mail = mailOf(event);
      return deps.email.sendText(target.address, mail.subject, mail.text);
    }
    // Private targets only for a global rule with the admin setting on; checked again at every attempt.
    const rule = await repo.get(event.rule.id);
    const allowPrivate = rule?.rule.server_id === null && (await allowPrivateTargets());
    await postWebhook({
      url: target.address,
      body: webhookBody(event, target.format as WebhookFormat),
      secret: target.secret,
      allowPrivate,
    });
  };
  const dispatcher = new AlertDispatcher(repo, send, deps.log);
  const engine = new AlertEngine(repo, dispatcher, deps.log);
  const unsubscribe = deps.activity.onRecorded((entry) => engine.onActivity(entry));
  // Thresholds, empty servers and console patterns are evaluated by the nodes (docs/alerts.md).
  const watches = new AlertWatchSync({ db: deps.db, link: deps.link, rules: () => engine.rules() });
  deps.nodeEvents.onWatches = (nodeId, held) => watches.onPage(nodeId, held);
  const serverExists = async (id: string) =>
    (await deps.db.kysely.selectFrom('servers').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined;
  const service = new AlertsService({ repo, engine, allowPrivateTargets, serverExists });
  return {
    service,
    close: () => {
      deps.nodeEvents.onWatches = null;
      unsubscribe();
      engine.close();
    },
  };
}
