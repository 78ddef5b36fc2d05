/**
 * One webhook POST (docs/alerts.md § Webhooks): http(s) only, a per-request timeout, the answer drained and
 * capped, redirects never followed (a 3xx is a failed attempt, so a receiver cannot bounce the panel to a
 * loopback address), and — unless the admin setting `panel.alerts.allowPrivateTargets` is on — the SSRF guard
 * shared with the daemon's downloads (@hearth/server-kit/private-address): IP literals are checked before
 * connecting and host names at connect time through `lookup`, so the address checked is the one connected to.
 */
import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '@hearth/contract';
import { isPrivateAddress } from '@hearth/server-kit/private-address';

/** Long enough for a slow receiver, short enough that a stuck one frees its worker (docs/alerts.md § Delivery). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export function refused(url: string, reason: string): AppError {
  return new AppError('ErrAlertTargetRefused', { url, reason });
}

/** Parses and checks a webhook URL; with `allowPrivate` false an IP literal in a private range is refused. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused(raw, 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused(raw, `${url.protocol} is not allowed`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    throw refused(raw, 'private or loopback address');
  if (!allowPrivate && host.toLowerCase() === 'localhost') throw refused(raw, 'private or loopback address');
  return url;
}

function guardedLookup(url: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(refused(url, `${hostname} resolves to a private address`), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(new Error('no address'), '', 0);
    });
  };
}

/** `sha256=<hex>` over `<timestamp>.<body>`: what a receiver recomputes (docs/alerts.md § Verifying). */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookRequest {
  url: string;
  body: string;
  /** Signs the body when set (format `json`). */
  secret: string | null;
  allowPrivate: boolean;
  timeoutMs?: number;
}

/** Sends once; resolves on a 2xx answer, rejects with the reason otherwise (the dispatcher retries). */
export function postWebhook(request: WebhookRequest, now = Date.now()): Promise<number> {
  const url = checkWebhookUrl(request.url, request.allowPrivate);
  const timeoutMs = request.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(request.body)),
    'user-agent': 'Hearth-Alerts',
  };
  if (request.secret) {
    const timestamp = String(Math.floor(now / 1000));
    headers['x-hearth-timestamp'] = timestamp;
    headers['x-hearth-signature'] = signature(request.secret, timestamp, request.body);
  }
  const client = url.protocol === 'https:' ? https : http;
  const lookup = request.allowPrivate ? undefined : guardedLookup(url.href);
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'POST', headers, lookup, timeout: timeoutMs }, (res) => {
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) res.destroy();
      });
      res.on('error', () => {});
      res.on('close', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(status);
        else if (status >= 300 && status < 400)
          reject(new Error(`HTTP ${status}: redirects are not followed`));
        else reject(new Error(`HTTP ${status}`));
      });
    });
    // The whole exchange, not only idle time, is bounded: a receiver trickling bytes still ends.
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => reject(err));
    req.on('close', () => clearTimeout(timer));
    req.end(request.body);
  });
}
