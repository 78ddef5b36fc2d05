/**
 * Valid requests for the transfer routes (docs/api.md § Moving a server between nodes) in the proxy matrix: a
 * second node with its own daemon (shared by the matrix, closed with it) is the target, and each attempt moves a
 * fresh server of the matrix's node, so the shared server never leaves it.
 */
import { call } from '../../apps/panel/test/helpers/app';
import type { BuildRequest, RequestContext } from '../../apps/panel/test/helpers/route-matrix';
import { unique } from '../../apps/panel/test/helpers/valid-requests';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { registerNode } from './node-fixture';

function targetNode(ctx: RequestContext): Promise<string> {
  return ctx.shared('transfer target node', async () => {
    const node = await registerNode(ctx.t, await ctx.session(ctx.admin), unique('matrix-target'));
    ctx.onClose(() => node.daemon.close());
    return node.id;
  });
}

/** A fresh server moved (or not: the outcome does not matter here) once, so it has a last transfer to show. */
async function movedOnce(ctx: RequestContext): Promise<string> {
  const id = await ctx.server({ fresh: true });
  const token = await ctx.session(ctx.admin);
  const body = { node: await targetNode(ctx) };
  const started = await call(ctx.t, 'POST', `/api/servers/${id}/transfer`, { token, body });
  if (started.statusCode !== 202) throw new Error(`transfer as admin: ${started.statusCode} ${started.body}`);
  await waitFor(
    async () => {
      const res = await call(ctx.t, 'GET', `/api/servers/${id}/transfer`, { token });
      return ['done', 'failed'].includes(res.json<{ phase: string }>().phase);
    },
    'the transfer settled',
    { timeoutMs: 120_000, intervalMs: 200 },
  );
  return id;
}

export const transferRequests = {
  'POST /api/servers/:id/transfer': async (ctx: RequestContext) => ({
    url: `/api/servers/${await ctx.server({ fresh: true })}/transfer`,
    body: { node: await targetNode(ctx) },
  }),
  'GET /api/servers/:id/transfer': async (ctx: RequestContext) => ({
    url: `/api/servers/${await movedOnce(ctx)}/transfer`,
  }),
} satisfies Record<string, BuildRequest>;
