import { z } from 'zod';
import { daemonFeaturesSchema } from '@hearth/contract';
import {
  nodeBodySchema,
  nodeChoiceSchema,
  nodeCreatedSchema,
  nodeDeploymentSchema,
  nodeUpdateSchema,
  nodeViewSchema,
} from '@hearth/contract/nodes';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../app-types';
import { currentUser } from '../../plugins/auth';
import type { NodeStatusCache } from '../../nodes-link/node-status';
import type { NodesService } from './nodes.service';

const tags = ['nodes'];
const editorOf = (req: FastifyRequest) => ({ admin: currentUser(req).permissions.admin });
const idParams = z.strictObject({ id: z.string().min(1).max(64) });

export function nodesRoutes(app: App, nodes: NodesService, status: NodeStatusCache): void {
  app.get('/api/nodes', {
    config: { permission: 'viewNodes' },
    schema: { tags, response: { 200: z.array(nodeViewSchema) } },
    handler: async () => {
      const list = await nodes.list();
      const statuses = await status.statuses(list.map((n) => n.id));
      return list.map((n) => ({ ...n, status: statuses.get(n.id) ?? 'unknown' }));
    },
  });

  // Creators pick a node without viewing nodes: names, reachability and what each can run, nothing more.
  app.get('/api/nodes/choices', {
    config: { permission: 'createServers' },
    schema: { tags, response: { 200: z.array(nodeChoiceSchema) } },
    handler: async () => {
      const list = await nodes.list();
      const features = await Promise.all(list.map((n) => status.knownFeatures(n.id)));
      const statuses = await status.statuses(list.map((n) => n.id));
      return list.map((n, i) => ({
        id: n.id,
        name: n.name,
        status: statuses.get(n.id) ?? 'unknown',
        environments: features[i]?.environments,
      }));
    },
  });

  app.post('/api/nodes', {
    config: { permission: 'editNodes' },
    schema: { tags, body: nodeBodySchema, response: { 200: nodeCreatedSchema } },
    handler: (req) => nodes.create(req.body, editorOf(req)),
  });

  app.get('/api/nodes/:id', {
    config: { permission: 'viewNodes' },
    schema: { tags, params: idParams, response: { 200: nodeViewSchema } },
    handler: (req) => nodes.get(req.params.id),
  });

  app.put('/api/nodes/:id', {
    config: { permission: 'editNodes' },
    schema: { tags, params: idParams, body: nodeUpdateSchema },
    handler: async (req, reply) => {
      await nodes.update(req.params.id, req.body, editorOf(req));
      return reply.status(204).send();
    },
  });

  app.delete('/api/nodes/:id', {
    config: { permission: 'editNodes' },
    schema: { tags, params: idParams },
    handler: async (req, reply) => {
      await nodes.delete(req.params.id);
      status.forget(req.params.id);
      return reply.status(204).send();
    },
  });

  app.get('/api/nodes/:id/deployment', {
    config: { permission: 'deployNodes' },
    schema: { tags, params: idParams, response: { 200: nodeDeploymentSchema } },
    handler: (req) => nodes.deployment(req.params.id),
  });

  app.post('/api/nodes/:id/deployment/rotate', {
    config: { permission: 'deployNodes' },
    schema: { tags, params: idParams, response: { 200: nodeDeploymentSchema } },
    handler: (req) => nodes.rotate(req.params.id),
  });

  app.get('/api/nodes/:id/features', {
    config: { permission: 'viewNodes' },
    schema: { tags, params: idParams, response: { 200: daemonFeaturesSchema } },
    handler: async (req) => {
      await nodes.row(req.params.id);
      return status.features(req.params.id);
    },
  });
}
