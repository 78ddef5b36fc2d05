import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorCodes } from '@hearth/contract';

const doc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `(Err\w+)` \| (\d{3}) \|/gm)].map((m) => [m[1] ?? '', Number(m[2])] as const),
);

describe('error catalogue', () => {
  it('gives every code an English message and an error status', () => {
    for (const code of errorCodes) {
      const entry = errorCatalogue[code];
      expect(entry.message.trim().length, code).toBeGreaterThan(0);
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.status, code).toBeLessThan(600);
    }
  });

  it('documents every code in docs/errors.md with its status', () => {
    for (const code of errorCodes) {
      expect(documented.has(code), `${code} is missing from docs/errors.md`).toBe(true);
      expect(documented.get(code), code).toBe(errorCatalogue[code].status);
    }
  });

  it('documents no code that the catalogue does not have (no stale rows)', () => {
    const known = new Set<string>(errorCodes);
    for (const code of documented.keys()) expect(known.has(code), `${code} is stale`).toBe(true);
  });
});
