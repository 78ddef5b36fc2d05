/**
 * Files on the wire. `modifyTime` is epoch seconds.
 * A listing holds folders first, then files, by name ignoring case, with a `..` entry below the root.
 */
import { z } from 'zod';

export const fileEntrySchema = z.object({
  name: z.string(),
  isFile: z.boolean(),
  size: z.number(),
  modifyTime: z.number(),
  /** Permission bits (`mode & 0o7777`, setuid/setgid/sticky shown when set); absent from older daemons. */
  mode: z.number().int().optional(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

/** `GET …/file/{folder}` and the socket's `file-list` event (`error` set when the action failed). */
export const fileListSchema = z.object({
  files: z.array(fileEntrySchema),
  path: z.string(),
  error: z.string().optional(),
});
export type FileList = z.infer<typeof fileListSchema>;

/** `POST …/archive/{path}`: the paths (relative to the server root) to put in the zip. */
export const archiveRequestSchema = z.array(z.string()).min(1).max(10_000);
export type ArchiveRequest = z.infer<typeof archiveRequestSchema>;
/** Its answer: where the zip was written (a free name beside the requested one if that was taken). */
export const archiveResponseSchema = z.object({ path: z.string() });
export type ArchiveResponse = z.infer<typeof archiveResponseSchema>;

/** `POST …/move` (rename or move) and `POST …/copy`: both paths relative to the server root. */
export const fileTransferRequestSchema = z.object({
  from: z.string().min(1).max(4096),
  to: z.string().min(1).max(4096),
  /** Replace an existing target (a file, or a folder with everything in it); refused with 409 otherwise. */
  overwrite: z.boolean().default(false),
});
export type FileTransferRequest = z.output<typeof fileTransferRequestSchema>;

/** The answer of a copy: entries left out (symlinks, devices) with why, as extract reports them. */
export const fileCopyReportSchema = z.object({
  path: z.string(),
  files: z.number(),
  folders: z.number(),
  bytes: z.number(),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type FileCopyReport = z.infer<typeof fileCopyReportSchema>;

/** The highest mode `POST …/chmod` accepts: permission bits only (no setuid, setgid or sticky). */
export const MAX_FILE_MODE = 0o777;

/** `POST …/chmod`: the permission bits of one entry (a symlink is refused: chmod would change its target). */
export const fileChmodRequestSchema = z.object({
  path: z.string().max(4096),
  mode: z.number().int().min(0).max(MAX_FILE_MODE),
});
export type FileChmodRequest = z.infer<typeof fileChmodRequestSchema>;

/** Bounds of `GET …/search` (docs/files.md): results, folder depth below `path`, entries looked at, time. */
export const FILE_SEARCH_LIMITS = {
  defaultResults: 200,
  maxResults: 1000,
  maxDepth: 32,
  maxEntries: 200_000,
  maxMs: 5000,
} as const;

/**
 * `GET …/search?q=&path=&limit=`: names below `path` containing `q` (ignoring case), or matching it as a glob
 * when it holds `*` or `?` (whole name, ignoring case). Symlinks are matched by their own name, never followed.
 */
export const fileSearchQuerySchema = z.object({
  q: z.string().min(1).max(255),
  path: z.string().max(4096).default(''),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(FILE_SEARCH_LIMITS.maxResults)
    .default(FILE_SEARCH_LIMITS.defaultResults),
});
export type FileSearchQuery = z.output<typeof fileSearchQuerySchema>;

export const fileSearchHitSchema = z.object({
  /** Relative to the server root. */
  path: z.string(),
  name: z.string(),
  isFile: z.boolean(),
  size: z.number(),
  modifyTime: z.number(),
});
export type FileSearchHit = z.infer<typeof fileSearchHitSchema>;

/** `truncated`: a bound was hit (`limit` results, depth, entries or time), so there may be more. */
export const fileSearchResultSchema = z.object({
  results: z.array(fileSearchHitSchema),
  truncated: z.boolean(),
});
export type FileSearchResult = z.infer<typeof fileSearchResultSchema>;

/** `PUT …/file/{path}?folder=true|1` makes the folder (with parents) instead of taking a multipart upload. */
export const fileUploadQuerySchema = z.object({
  folder: z
    .string()
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});
export type FileUploadQuery = z.output<typeof fileUploadQuerySchema>;

/** `GET …/extract/{archive}?destination=`: the folder to extract into; blank = the archive's own folder. */
export const extractQuerySchema = z.object({ destination: z.string().default('') });
export type ExtractQuery = z.output<typeof extractQuerySchema>;

/** The answer of an extraction: what was written, and each entry left out with why (shown to the user). */
export const extractReportSchema = z.object({
  files: z.number(),
  folders: z.number(),
  bytes: z.number(),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export type ExtractReport = z.infer<typeof extractReportSchema>;

/** A download (`application/octet-stream`): the file's bytes, streamed as they are read, never serialised. */
export const fileBytesSchema = z.custom<AsyncIterable<Uint8Array>>(
  (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
);
export type FileBytes = z.infer<typeof fileBytesSchema>;

/** Socket `file` message: get lists (or names) a path, create makes a folder, delete removes recursively. */
export const fileMessageSchema = z.object({
  type: z.literal('file'),
  action: z.enum(['get', 'create', 'delete']),
  path: z.string().default(''),
});
export type FileMessage = z.infer<typeof fileMessageSchema>;

/** Archive extensions the file manager can extract (docs/files.md; `.tar.gz` etc. are matched by their last extension). */
export const archiveExtensions = [
  '.7z',
  '.bz2',
  '.gz',
  '.jar',
  '.lz',
  '.lzma',
  '.rar',
  '.tar',
  '.tgz',
  '.xz',
  '.zip',
  '.zipx',
] as const;

/** Files over this cannot be opened in the editor. */
export const MAX_EDITABLE_FILE_BYTES = 20 * 1024 * 1024;
