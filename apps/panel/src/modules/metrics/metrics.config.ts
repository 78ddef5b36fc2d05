/**
 * The panel's `metrics` config section (docs/configuration.md § Metrics): `GET /metrics` is off by default (404);
 * when on, a scraper sends `Authorization: Bearer <token>` or comes from an address in `allow` (IPs or CIDR
 * ranges; `HEARTH_METRICS_ALLOW` takes them comma-separated).
 */
import { isIP } from 'node:net';
import { z } from 'zod';

/** `10.0.0.5`, `::1`, `10.0.0.0/8` or `fd00::/8`. */
export function isAddressOrRange(text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

const commaList = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
    : value;

export const metricsConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    token: z.string().default(''),
    allow: z
      .preprocess(
        commaList,
        z.array(z.string().refine(isAddressOrRange, 'an IP address or a CIDR range such as 10.0.0.0/8')),
      )
      .default([]),
  })
  .refine((m) => !m.enabled || m.token !== '' || m.allow.length > 0, {
    message: 'metrics.enabled needs a token or an allow list',
    path: ['token'],
  })
  .prefault({});
export type MetricsConfig = z.infer<typeof metricsConfigSchema>;
