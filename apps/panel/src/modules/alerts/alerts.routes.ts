import { z } from 'zod';
import {
  alertDeliveriesQuerySchema,
  alertDeliveryListSchema,
  alertRuleCreatedSchema,
  alertRuleInputSchema,
  alertRuleListSchema,
  alertRuleSchema,
  serverAlertRuleInputSchema,
} from '@hearth/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import { currentServer } from '../../plugins/auth';
import type { AlertScope, AlertsService } from './alerts.service';

const tags = ['alerts'];
const idParams = z.strictObject({ id: z.string().min(1).max(64) });
const serverRuleParams = z.strictObject({
  id: z.string().min(1).max(64),
  alertId: z.string().min(1).max(64),
});
const testAnswer = z.object({ deliveryId: z.string() });

const userOf = (req: FastifyRequest) => req.identity?.userId ?? '';
const admin = (req: FastifyRequest): AlertScope => ({ serverId: null, userId: userOf(req) });
const onServer = (req: FastifyRequest): AlertScope => ({
  serverId: currentServer(req).serverId,
  userId: userOf(req),
});

/**
 * Alerts (docs/alerts.md): `/api/alerts…` for administrators (every rule), and the same operations under
 * `/api/servers/{id}/alerts…` for a server's users holding `manageServerAlerts` (that server's rules only).
 */
export function alertsRoutes(app: App, alerts: AlertsService): void {
  app.get('/api/alerts', {
    config: { permission: 'admin' },
    schema: { tags, response: { 200: alertRuleListSchema } },
    handler: async (req) => ({ rules: await alerts.list(admin(req)) }),
  });
  app.post('/api/alerts', {
    config: { permission: 'admin' },
    schema: { tags, body: alertRuleInputSchema, response: { 201: alertRuleCreatedSchema } },
    handler: async (req, reply) => reply.code(201).send(await alerts.create(req.body, admin(req))),
  });
  app.get('/api/alerts/:id', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, response: { 200: alertRuleSchema } },
    handler: (req) => alerts.get(req.params.id, admin(req)),
  });
  app.put('/api/alerts/:id', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, body: alertRuleInputSchema, response: { 200: alertRuleSchema } },
    handler: (req) => alerts.update(req.params.id, req.body, admin(req)),
  });
  app.delete('/api/alerts/:id', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams },
    handler: async (req, reply) => {
      await alerts.delete(req.params.id, admin(req));
      return reply.code(204).send();
    },
  });
  app.post('/api/alerts/:id/test', {
    config: { permission: 'admin' },
    schema: { tags, params: idParams, response: { 202: testAnswer } },
    handler: async (req, reply) => reply.code(202).send(await alerts.test(req.params.id, admin(req))),
  });
  app.get('/api/alerts/:id/deliveries', {
    config: { permission: 'admin' },
    schema: {
      tags,
      params: idParams,
      querystring: alertDeliveriesQuerySchema,
      response: { 200: alertDeliveryListSchema },
    },
    handler: async (req) => ({
      deliveries: await alerts.deliveries(req.params.id, admin(req), req.query.limit),
    }),
  });
  serverAlertsRoutes(app, alerts);
}

function serverAlertsRoutes(app: App, alerts: AlertsService): void {
  const config = { permission: 'authenticated', server: 'manageServerAlerts' } as const;
  app.get('/api/servers/:id/alerts', {
    config,
    schema: { tags, params: idParams, response: { 200: alertRuleListSchema } },
    handler: async (req) => ({ rules: await alerts.list(onServer(req)) }),
  });
  app.post('/api/servers/:id/alerts', {
    config,
    schema: {
      tags,
      params: idParams,
      body: serverAlertRuleInputSchema,
      response: { 201: alertRuleCreatedSchema },
    },
    handler: async (req, reply) => reply.code(201).send(await alerts.create(req.body, onServer(req))),
  });
  app.get('/api/servers/:id/alerts/:alertId', {
    config,
    schema: { tags, params: serverRuleParams, response: { 200: alertRuleSchema } },
    handler: (req) => alerts.get(req.params.alertId, onServer(req)),
  });
  app.put('/api/servers/:id/alerts/:alertId', {
    config,
    schema: {
      tags,
      params: serverRuleParams,
      body: serverAlertRuleInputSchema,
      response: { 200: alertRuleSchema },
    },
    handler: (req) => alerts.update(req.params.alertId, req.body, onServer(req)),
  });
  app.delete('/api/servers/:id/alerts/:alertId', {
    config,
    schema: { tags, params: serverRuleParams },
    handler: async (req, reply) => {
      await alerts.delete(req.params.alertId, onServer(req));
      return reply.code(204).send();
    },
  });
  app.post('/api/servers/:id/alerts/:alertId/test', {
    config,
    schema: { tags, params: serverRuleParams, response: { 202: testAnswer } },
    handler: async (req, reply) => reply.code(202).send(await alerts.test(req.params.alertId, onServer(req))),
  });
  app.get('/api/servers/:id/alerts/:alertId/deliveries', {
    config,
    schema: {
      tags,
      params: serverRuleParams,
      querystring: alertDeliveriesQuerySchema,
      response: { 200: alertDeliveryListSchema },
    },
    handler: async (req) => ({
      deliveries: await alerts.deliveries(req.params.alertId, onServer(req), req.query.limit),
    }),
  });
}
