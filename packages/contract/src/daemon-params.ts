/**
 * Path parameters of the daemon's routes (the permission table's `params` schemas, daemon-routes.ts). An id that
 * is not an id names nothing: it is answered like an unknown one (404), and never reaches a path on disk.
 */
import { z } from 'zod';
import { serverIdSchema } from './daemon';
import { taskIdSchema } from './tasks';

const isServerId = (value: string) => serverIdSchema.safeParse(value).success;
const isTaskId = (value: string) => taskIdSchema.safeParse(value).success;

/** `/daemon/server/:id…` */
export const serverParamsSchema = z.object({
  id: z.string().refine(isServerId, { message: 'no such server', params: { code: 'ErrServerNotFound' } }),
});
export type ServerParams = z.infer<typeof serverParamsSchema>;

/** `/daemon/server/:id/file/*` and the like: the path under the server's folder (`''` for the root rows). */
export const serverPathParamsSchema = serverParamsSchema.extend({ '*': z.string().default('') });
export type ServerPathParams = z.output<typeof serverPathParamsSchema>;

/** `/daemon/server/:id/tasks/:taskId…` */
export const taskParamsSchema = serverParamsSchema.extend({
  taskId: z.string().refine(isTaskId, { message: 'no such task', params: { code: 'ErrTaskNotFound' } }),
});
export type TaskParams = z.infer<typeof taskParamsSchema>;
