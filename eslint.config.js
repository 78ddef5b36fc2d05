// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.test-results/**',
      '.tmp/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // The browser speaks to the panel over the wire; it shares only the contract.
      'no-restricted-imports': [
        'error',
        { patterns: ['@hearth/panel*', '@hearth/daemon*', '@hearth/cli*', '@hearth/server-kit*'] },
      ],
    },
  },
  {
    // The contract is the shared vocabulary: it may not depend on any app.
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@hearth/panel*',
            '@hearth/daemon*',
            '@hearth/web*',
            '@hearth/cli*',
            // server-only code lives in server-kit; the web app imports the contract too
            '@hearth/server-kit*',
            'fastify*',
            '@fastify/*',
          ],
        },
      ],
    },
  },
  {
    // Plumbing shared by the panel and the daemon (config loader, error handler): it knows neither app.
    files: ['packages/server-kit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@hearth/panel*', '@hearth/daemon*', '@hearth/web*', '@hearth/cli*'] },
      ],
    },
  },
  {
    // Panel and daemon are peers that talk over the wire; only the CLI composes them.
    files: ['apps/panel/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@hearth/daemon*', '@hearth/cli*', '@hearth/web*'] }],
    },
  },
  {
    files: ['apps/daemon/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@hearth/panel*', '@hearth/cli*', '@hearth/web*'] }],
    },
  },
  {
    // A daemon route's params, query and body are typed by its permission-table row's schemas and validated
    // before the handler (docs/adr/0004-contract-route-table.md); a hand cast would bypass both.
    files: ['apps/daemon/src/transport/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > MemberExpression.expression[property.name=/^(params|query|body)$/]',
          message: 'Declare the part in the route row’s schemas (packages/contract/src/daemon-routes.ts).',
        },
      ],
    },
  },
);
