import { isErrorCode, type ErrorCode, type ErrorMetadata } from '@hearth/contract';

/** What was sent, kept for the error-details overlay. */
export interface RequestRecord {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** Any failed call: an HTTP status (0 when the network failed) and the catalogue error if present. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly metadata: ErrorMetadata,
    readonly request: RequestRecord,
    readonly serverMessage?: string,
  ) {
    super(serverMessage ?? `${request.method} ${request.url} failed with ${status}`);
    this.name = 'ApiError';
  }
}

/** Reads `{"error":{"code","msg","metadata"}}`; anything else (bare 4xx, HTML) yields no code. */
export function parseErrorBody(body: unknown): { code?: string; msg?: string; metadata: ErrorMetadata } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return { metadata: {} };
  const error = body.error;
  if (typeof error !== 'object' || error === null) return { metadata: {} };
  const { code, msg, metadata } = error as { code?: unknown; msg?: unknown; metadata?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    msg: typeof msg === 'string' ? msg : undefined,
    metadata: typeof metadata === 'object' && metadata !== null ? (metadata as ErrorMetadata) : {},
  };
}

const GENERIC_CODES = new Set(['ErrGeneric', 'ErrUnknownError']);

/**
 * Which catalogue text to show, or undefined for 'Unknown error' + Details. A generic error that
 * carries a unique-constraint message on the server or node name becomes the duplicate message.
 */
export function catalogueCodeFor(err: ApiError): ErrorCode | undefined {
  if (err.code && GENERIC_CODES.has(err.code)) {
    const msg = err.serverMessage ?? '';
    if (/unique/i.test(msg) && /servers?\.name/i.test(msg)) return 'ErrDuplicateServerName';
    if (/unique/i.test(msg) && /nodes?\.name/i.test(msg)) return 'ErrDuplicateNodeName';
    return undefined;
  }
  return isErrorCode(err.code) ? err.code : undefined;
}

const SECRET_KEY = /pass(word)?|secret|token/i;
export const MASK = '********';

/** Masks a bearer token, keeping the scheme so the dump still shows what kind of auth was sent. */
export function maskAuthorization(value: string | undefined): string | undefined {
  if (!value) return value;
  const [scheme, credentials] = value.split(' ', 2);
  return credentials ? `${scheme} ${MASK}` : MASK;
}

function maskValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValue);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? MASK : maskValue(inner)]),
  );
}

/** Masks every password, secret or token field of a JSON body (form bodies: same keys). */
export function maskBody(body: string | undefined): string | undefined {
  if (body === undefined || body === '') return body;
  try {
    return JSON.stringify(maskValue(JSON.parse(body)), null, 2);
  } catch {
    const params = new URLSearchParams(body);
    for (const key of [...params.keys()]) if (SECRET_KEY.test(key)) params.set(key, MASK);
    return params.toString();
  }
}

/** Friendly note per status for the error dump. */
export function statusNoteKey(status: number): string | undefined {
  const notes: Record<number, string> = {
    401: 'errorDetails.note401',
    403: 'errorDetails.note403',
    404: 'errorDetails.note404',
    500: 'errorDetails.note500',
    502: 'errorDetails.note502',
  };
  return notes[status];
}

export interface ErrorDump {
  endpoint: string;
  method: string;
  status: number;
  authorization?: string;
  body?: string;
  response?: string;
  stack?: string;
  noteKey?: string;
}

export function errorDump(err: ApiError): ErrorDump {
  return {
    endpoint: err.request.url,
    method: err.request.method,
    status: err.status,
    authorization: maskAuthorization(err.request.headers.Authorization),
    body: maskBody(err.request.body),
    response: err.code ? `${err.code}${err.serverMessage ? `: ${err.serverMessage}` : ''}` : undefined,
    stack: err.stack,
    noteKey: statusNoteKey(err.status),
  };
}
