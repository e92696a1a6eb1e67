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

/** The server's infrastructure: what every domain builds on, knowing none of them. */
const SERVER_INFRA = 'src/server/{http,db,lib,media,events,realtime,lists}';
/** The server's domains: each with its routes, services and repositories. */
const SERVER_DOMAINS =
  'src/server/{memories,questions,speakers,admin,attendees,uploads,settings,system,polls,reactions,announcements,push,moderation}';
const SERVER = ['server', 'server-auth', 'server-infra', 'server-domain'];

/**
 * Imports flow one way: shared imports nothing of ours; server and client import shared but
 * not each other. In the client, app/ composes features, features use components/ and lib/,
 * components/ use lib/, and lib/ uses only itself: nothing imports upwards. A feature imports
 * nothing of another feature but its `api/` (the endpoints it owns) (decisions 104 and 209).
 * Inside the server, routes call services, services call repositories, repositories call the
 * database, and the infrastructure imports no domain and nothing of auth/ (decision 204).
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
      // The languages sit under every screen, beside lib/: anything of the client shows text.
      { type: 'lib', pattern: 'src/client/i18n' },
      { type: 'client', pattern: 'src/client' },
      { type: 'server-infra', pattern: SERVER_INFRA },
      { type: 'server-domain', pattern: SERVER_DOMAINS },
      { type: 'server-auth', pattern: 'src/server/auth' },
      { type: 'server', pattern: 'src/server' },
      { type: 'shared', pattern: 'src/shared' },
    ],
    // A server file's layer by its name: the routes, the repositories (all SQL), and the tests.
    'boundaries/files': [
      { category: 'test', pattern: 'src/**/*.test.{ts,tsx}' },
      { category: 'routes', pattern: 'src/server/**/*.routes.ts' },
      { category: 'repository', pattern: 'src/server/**/*.repository.ts' },
      { category: 'config', pattern: 'src/server/config.ts' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        // Files of one folder too: a service there must not import its routes.
        checkInternals: true,
        policies: [
          {
            from: { element: { type: 'shared' } },
            disallow: { to: { element: { types: { anyOf: [...SERVER, ...CLIENT] } } } },
            message: 'src/shared imports nothing outside src/shared.',
          },
          {
            from: { element: { types: { anyOf: SERVER } } },
            disallow: { to: { element: { types: { anyOf: CLIENT } } } },
            message: 'The server does not import client code.',
          },
          {
            from: { file: { categories: 'routes' } },
            disallow: { to: { file: { categories: 'repository' } } },
            message: 'A route calls a service, never a repository: the service holds the rules.',
          },
          {
            from: { element: { types: { anyOf: ['server-infra', 'server-domain'] } } },
            disallow: { to: { file: { categories: 'routes' } } },
            message: 'Only app.ts registers routes: nothing else imports a routes file.',
          },
          {
            from: { file: { categories: 'repository' } },
            disallow: { to: { element: { types: { anyOf: ['server-domain', 'server-auth'] } } } },
            message: 'A repository imports the database layer and other repositories only.',
          },
          {
            from: { file: { categories: 'repository' } },
            allow: { to: { file: { categories: 'repository' } } },
          },
          {
            from: { element: { type: 'server-infra' } },
            disallow: {
              to: { element: { types: { anyOf: ['server-domain', 'server-auth', 'server'] } } },
            },
            message:
              'http/, db/, lib/, media/, events/, realtime/ and lists/ import no domain, no auth/ and nothing above them but config.ts.',
          },
          {
            from: { element: { type: 'server-infra' } },
            allow: { to: { file: { categories: 'config' } } },
          },
          // Tests seed and inspect through the repositories and build what they test directly.
          {
            from: { file: { categories: 'test' } },
            allow: { to: { element: { types: { anyOf: SERVER } } } },
          },
          {
            from: { element: { types: { anyOf: CLIENT } } },
            disallow: { to: { element: { types: { anyOf: SERVER } } } },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: 'shared/i18n/catalogs(\\.ts|/)',
              message:
                'The client loads the catalog of the language shown (i18n/language.ts), never all of them.',
            },
          ],
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
