import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  ACTIVITY_EXPORT_MAX,
  ACTIVITY_PAGE_MAX,
  activityPageSchema,
  activityQuerySchema,
  serverActivityQuerySchema,
  type ActivityEntry,
  type ActivityQuery,
} from '@hearth/contract';
import type { App } from '../../app-types';
import { currentServer } from '../../plugins/auth';
import type { ActivityFilter } from './activity.repository';
import type { ActivityService } from './activity.service';
import { csvHeader, csvLine } from './csv';

const tags = ['activity'];
const idParams = z.strictObject({ id: z.string().min(1).max(64) });

/** `GET /api/activity` (admins) and `GET /api/servers/{id}/activity` (the flag viewServerActivity). */
export function activityRoutes(app: App, activity: ActivityService): void {
  app.get('/api/activity', {
    config: { permission: 'admin' },
    schema: { tags, querystring: activityQuerySchema, response: { 200: activityPageSchema } },
    handler: (req, reply) => answer(activity, reply, req.query, filterOf(req.query)),
  });

  app.get('/api/servers/:id/activity', {
    config: { permission: 'authenticated', server: 'viewServerActivity' },
    schema: {
      tags,
      params: idParams,
      querystring: serverActivityQuerySchema,
      response: { 200: activityPageSchema },
    },
    handler: (req, reply) =>
      answer(activity, reply, req.query, { ...filterOf(req.query), server: currentServer(req).serverId }),
  });
}

function filterOf(query: Omit<ActivityQuery, 'server'> & { server?: string }): ActivityFilter {
  return {
    server: query.server,
    user: query.user,
    action: query.action,
    since: query.since,
    until: query.until,
  };
}

async function answer(
  activity: ActivityService,
  reply: FastifyReply,
  query: Pick<ActivityQuery, 'page' | 'limit' | 'format'>,
  filter: ActivityFilter,
) {
  if (query.format) return exportTo(activity, reply, query.format, filter);
  const { entries, total } = await activity.page(filter, query.page, query.limit);
  return { entries, paging: { page: query.page, pageSize: query.limit, maxSize: ACTIVITY_PAGE_MAX, total } };
}

/** Exports stream chunk by chunk (activity.service.ts walk): a large log is never held in memory. */
function exportTo(
  activity: ActivityService,
  reply: FastifyReply,
  format: 'csv' | 'json',
  filter: ActivityFilter,
) {
  const entries = activity.walk(filter, ACTIVITY_EXPORT_MAX);
  const body = Readable.from(format === 'csv' ? csvLines(entries) : jsonLines(entries));
  reply
    .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
    .header('content-disposition', `attachment; filename="activity.${format}"`);
  return reply.send(body);
}

async function* csvLines(entries: AsyncIterable<ActivityEntry>): AsyncGenerator<string> {
  yield csvHeader;
  for await (const entry of entries) yield csvLine(entry);
}

async function* jsonLines(entries: AsyncIterable<ActivityEntry>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const entry of entries) {
    yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
    first = false;
  }
  yield '\n]\n';
}
