/**
 * HTTP(S) GET for processors: http/https only, redirects followed (bounded), the SSRF guard on every hop,
 * a size limit, and a timeout. Returns the response stream; helpers read JSON or save into the sandbox.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress, refused } from './net-guard';

export interface HttpSettings {
  allowPrivateAddresses: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

function checkUrl(raw: string, settings: HttpSettings): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused(raw, 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(raw, `${url.protocol} is not allowed`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!settings.allowPrivateAddresses && isIP(host) !== 0 && isPrivateAddress(host)) {
    throw refused(raw, 'private or loopback address');
  }
  return url;
}

function requestOnce(url: URL, settings: HttpSettings, signal?: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  const lookup = settings.allowPrivateAddresses ? undefined : guardedLookup(url.href);
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup, signal, timeout: settings.timeoutMs }, resolve);
    req.on('timeout', () => req.destroy(refused(url.href, `no answer within ${settings.timeoutMs} ms`)));
    req.on('error', reject);
  });
}

export interface HttpResponse {
  response: IncomingMessage;
  /** The URL that answered, after redirects. */
  url: string;
}

/** GETs `raw`, following redirects; resolves with a 2xx response (the caller consumes or destroys it). */
export async function httpGet(
  raw: string,
  settings: HttpSettings,
  signal?: AbortSignal,
): Promise<HttpResponse> {
  let url = checkUrl(raw, settings);
  for (let hop = 0; ; hop++) {
    const res = await requestOnce(url, settings, signal);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= settings.maxRedirects) throw refused(raw, `more than ${settings.maxRedirects} redirects`);
      url = checkUrl(new URL(res.headers.location, url).href, settings);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw refused(url.href, `HTTP ${status}`);
    }
    const length = Number(res.headers['content-length'] ?? NaN);
    if (length > settings.maxBytes) {
      res.destroy();
      throw refused(url.href, `size ${length} exceeds the limit of ${settings.maxBytes} bytes`);
    }
    return { response: res, url: url.href };
  }
}

/** GETs and parses JSON (manifests), capped at 16 MiB. */
export async function httpGetJson(
  raw: string,
  settings: HttpSettings,
  signal?: AbortSignal,
): Promise<unknown> {
  const limit = Math.min(settings.maxBytes, 16 * 1024 * 1024);
  const { response: res } = await httpGet(raw, { ...settings, maxBytes: limit }, signal);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of res as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > limit) {
      res.destroy();
      throw refused(raw, `larger than ${limit} bytes`);
    }
    parts.push(part);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
  } catch {
    throw refused(raw, 'the answer is not valid JSON');
  }
}
