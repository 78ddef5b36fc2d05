/**
 * The resumable-upload rows of the daemon's permission table (daemon-routes.ts spreads them into
 * `daemonRoutes`; docs/files.md § Resumable uploads, docs/adr/0014-tus-uploads.md): the tus 1.0 protocol with
 * its creation and termination extensions. `POST …/upload` creates an upload (`Upload-Length`, and
 * `Upload-Metadata` naming the final `path` inside the server folder); `PATCH …/upload/{upload}` appends a chunk
 * at `Upload-Offset`; `GET` (and so `HEAD`, which tus clients send) answers the offset; `DELETE` drops it. All
 * four need putServerFiles, the multipart upload's flag; the panel proxies them as `upload` (streamed bodies and
 * the tus headers passed both ways: apps/panel/src/modules/servers/upload-proxy.routes.ts).
 */
import { z } from 'zod';
import type { DaemonProxy, DaemonRouteRow } from './daemon-routes';
import { serverParamsSchema } from './daemon-params';

const S = '/daemon/server/:id';
const P = '/proxy/daemon/server/:id';
const proxied = (suffix: string): DaemonProxy => ({ path: `${P}${suffix}`, forward: 'upload' });

/** An upload's id: 32 hex digits the daemon made (anything else names no upload: 404). */
export const uploadIdSchema = z.string().regex(/^[0-9a-f]{32}$/);
export type UploadId = z.infer<typeof uploadIdSchema>;

/** `/daemon/server/:id/upload/:upload` */
export const uploadParamsSchema = serverParamsSchema.extend({
  upload: z.string().refine((value) => uploadIdSchema.safeParse(value).success, {
    message: 'no such upload',
    params: { code: 'ErrUploadNotFound' },
  }),
});
export type UploadParams = z.infer<typeof uploadParamsSchema>;

/** The tus version this daemon speaks (`Tus-Resumable`). */
export const TUS_VERSION = '1.0.0';

const none = { params: undefined, query: undefined, body: undefined, response: undefined } as const;
const empty = z.undefined();
const need = ['putServerFiles'] as const;

export const uploadRoutes = {
  uploadCreate: {
    method: 'POST',
    path: `${S}/upload`,
    need,
    proxy: proxied('/upload'),
    note:
      'tus creation: `Upload-Length` and `Upload-Metadata` `path` (base64); answers 201 with `Location`. ' +
      'The length is checked against the node’s upload limit, the server’s pending uploads and free space.',
    schemas: { ...none, params: serverParamsSchema, response: { 201: empty } },
  },
  uploadOffset: {
    method: 'GET',
    path: `${S}/upload/:upload`,
    need,
    proxy: proxied('/upload/:upload'),
    note: 'tus clients send `HEAD`: `Upload-Offset` and `Upload-Length` in the headers, no body.',
    schemas: { ...none, params: uploadParamsSchema, response: { 200: empty } },
  },
  uploadPatch: {
    method: 'PATCH',
    path: `${S}/upload/:upload`,
    need,
    proxy: proxied('/upload/:upload'),
    note:
      'A chunk (`application/offset+octet-stream`) at `Upload-Offset` (another offset: 409); the last one ' +
      'moves the file into place atomically through the server’s sandbox.',
    schemas: { ...none, params: uploadParamsSchema, response: { 204: empty } },
  },
  uploadDelete: {
    method: 'DELETE',
    path: `${S}/upload/:upload`,
    need,
    proxy: proxied('/upload/:upload'),
    note: 'tus termination: the partial file is removed.',
    schemas: { ...none, params: uploadParamsSchema, response: { 204: empty } },
  },
} as const satisfies Record<string, DaemonRouteRow>;
