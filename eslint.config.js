// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const NO_BARRELS = {
  selector: 'ExportAllDeclaration',
  message: 'No barrel files: import from the module itself.',
};

const CLIENT = ['client', 'app', 'feature', 'feature-api', 'components', 'lib'];

/**
 * Imports flow one way: shared imports nothing of ours; server and client import shared but
 * not each other. In the client, app/ composes features, features use components/ and lib/,
 * components/ use lib/, and lib/ uses only itself: nothing imports upwards. A feature imports
 * nothing of another feature but its `api/` (the endpoints it owns) (decisions 104 and 209).
 */
const boundariesConfig = {
  files: ['src/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    'boundaries/include': ['src/**/*'],
    // The first pattern that matches a file names its element: the narrowest come first.
    'boundaries/elements': [
      { type: 'feature-api', pattern: 'src/client/features/*/api', capture: ['name'] },
      { type: 'feature', pattern: 'src/client/features/*', capture: ['name'] },
      { type: 'app', pattern: 'src/client/app' },
      { type: 'components', pattern: 'src/client/components' },
      { type: 'lib', pattern: 'src/client/lib' },
      { type: 'client', pattern: 'src/client' },
      { type: 'server', pattern: 'src/server' },
      { type: 'shared', pattern: 'src/shared' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: [
          {
            from: { element: { type: 'shared' } },
            disallow: { to: { element: { types: { anyOf: ['server', ...CLIENT] } } } },
            message: 'src/shared imports nothing outside src/shared.',
          },
          {
            from: { element: { type: 'server' } },
            disallow: { to: { element: { types: { anyOf: CLIENT } } } },
            message: 'The server does not import client code.',
          },
          {
            from: { element: { types: { anyOf: CLIENT } } },
            disallow: { to: { element: { type: 'server' } } },
            message: 'The client does not import server code.',
          },
          {
            from: { element: { types: { anyOf: ['feature', 'feature-api'] } } },
            disallow: {
              to: {
                element: {
                  type: 'feature',
                  captured: { name: '!{{ from.element.captured.name }}' },
                },
              },
            },
            message: "A feature may import only another feature's api/; compose the rest in app/.",
          },
          {
            from: { element: { types: { anyOf: ['feature', 'feature-api'] } } },
            disallow: { to: { element: { types: { anyOf: ['app', 'client'] } } } },
            message:
              'Features do not import app/; what features share goes in components/ or lib/.',
          },
          {
            from: { element: { type: 'components' } },
            disallow: {
              to: { element: { types: { anyOf: ['app', 'client', 'feature', 'feature-api'] } } },
            },
            message: 'components/ imports only components/ and lib/: it sits under the features.',
          },
          {
            from: { element: { type: 'lib' } },
            disallow: {
              to: {
                element: {
                  types: { anyOf: ['app', 'client', 'feature', 'feature-api', 'components'] },
                },
              },
            },
            message: 'lib/ imports only lib/: it sits under everything else of the client.',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'src/client/public',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.node },
    },
    rules: {
      'no-restricted-syntax': ['error', NO_BARRELS],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Fastify plugins are async functions whether or not they await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  boundariesConfig,
  {
    // Every refusal comes from a factory of `http/errors.ts`, where each message is written once.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/http/errors.ts', 'src/server/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_BARRELS,
        {
          selector: "NewExpression[callee.name='HttpError']",
          message: 'Refuse with a factory of http/errors.ts (notFound, forbidden, …).',
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'fetch',
          message: 'Components use TanStack Query and lib/api-client.ts, not fetch.',
        },
      ],
    },
  },
  {
    files: ['src/client/lib/api-client.ts', 'src/client/lib/upload.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
