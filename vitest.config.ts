import { defineConfig } from 'vitest/config';

// Two tiers in one run: unit + medium tests (real DBs, real processes) and end-to-end tests
// (real panel, real daemon, Debian's Chromium). e2e files run one at a time: they start servers on ports.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/test/**/*.test.ts',
            'scripts/test/**/*.test.ts',
            'apps/*/test/**/*.test.{ts,tsx}',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // Concurrent tests inside one file (e2e/i18n-walk.test.ts's locales) run at most three at a time.
          maxConcurrency: 3,
        },
      },
    ],
  },
});
