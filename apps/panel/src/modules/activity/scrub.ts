import type { ActivityDetails } from '@hearth/contract';

/**
 * A last guard on what details may hold (docs/activity.md § What is never recorded): keys that name secrets are
 * dropped whatever records them, and long strings are cut so one entry stays small.
 */
const SECRET_KEY = /password|passphrase|secret|token|authorization|cookie|^(otp|code|key|apiKey)$/i;
const MAX_STRING = 8192;

export function scrubDetails(details: ActivityDetails): ActivityDetails {
  const out: ActivityDetails = {};
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY.test(key)) continue;
    out[key] = scrubValue(value);
  }
  return out;
}

function scrubValue(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (Array.isArray(value)) return value.slice(0, 200).map(scrubValue);
  if (value && typeof value === 'object') return scrubDetails(value as ActivityDetails);
  return value;
}
