import { z } from 'zod';
import {
  importListSchema,
  importNamesSchema,
  importQuerySchema,
  importResultSchema,
  storedTemplateSchema,
  templateIdSchema,
  templateSummarySchema,
} from '@hearth/contract/templates-api';
import type { App } from '../../app-types';
import type { TemplatesService } from './templates.service';

const idParams = z.strictObject({ id: templateIdSchema });
const nameParams = z.strictObject({ name: z.string().min(1).max(100) });
const sourceQuery = z.strictObject({ source: z.string().min(1).max(100).optional() });
/** Any JSON object: conversion from older formats happens before the template schema judges it. */
const templateBody = z.record(z.string(), z.unknown());
const tags = ['templates'];

export function templatesRoutes(app: App, templates: TemplatesService): void {
  app.get('/api/templates', {
    config: { permission: 'viewTemplates' },
    schema: { tags, response: { 200: z.array(templateSummarySchema) } },
    handler: () => templates.list(),
  });

  app.get('/api/templates/:id', {
    config: { permission: 'viewTemplates' },
    schema: { tags, params: idParams, response: { 200: storedTemplateSchema } },
    handler: (req) => templates.get(req.params.id),
  });

  app.put('/api/templates/:id', {
    config: { permission: 'editTemplates' },
    schema: { tags, params: idParams, body: templateBody, response: { 200: storedTemplateSchema } },
    handler: (req) => templates.save(req.params.id, req.body),
  });

  app.delete('/api/templates/:id', {
    config: { permission: 'editTemplates' },
    schema: { tags, params: idParams },
    handler: async (req, reply) => {
      await templates.delete(req.params.id);
      return reply.status(204).send();
    },
  });

  // PufferPanel v2 answers a plain array of names here; API clients depend on that shape.
  app.post('/api/templates/import', {
    config: { permission: 'editTemplates' },
    schema: { tags, querystring: sourceQuery, response: { 200: importNamesSchema } },
    handler: (req) => templates.importableNames(req.query.source),
  });

  // The richer view for the web list: sources, per-template warnings, problems and failed sources.
  app.get('/api/templates/import/status', {
    config: { permission: 'editTemplates' },
    schema: { tags, querystring: sourceQuery, response: { 200: importListSchema } },
    handler: (req) => templates.importable(req.query.source),
  });

  // SPEC: an import overwrites; `?overwrite=false` (what the web sends first) refuses with 409 instead.
  app.post('/api/templates/import/:name', {
    config: { permission: 'editTemplates' },
    schema: {
      tags,
      params: nameParams,
      querystring: importQuerySchema,
      response: { 200: importResultSchema },
    },
    handler: (req) => templates.import(req.params.name, req.query.source, req.query.overwrite !== 'false'),
  });
}
