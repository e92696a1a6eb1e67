// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

const CLIENT = ['client', 'app', 'app-layout', 'feature', 'feature-api'];

/**
 * Imports flow one way: shared imports nothing of ours; server and client import shared but
 * not each other; a client feature imports nothing of another feature but its `api/` (the
 * endpoints it owns), and nothing of app/ but its layout (decision 104).
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
      { type: 'app-layout', pattern: 'src/client/app/layout' },
      { type: 'app', pattern: 'src/client/app' },
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
            disallow: { to: { element: { type: 'app' } } },
            message: 'Features do not import app/ (only app/layout components).',
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
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'No barrel files: import from the module itself.',
        },
      ],
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
