// @ts-check
import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const srcDir = (...parts) => path.join(root, 'src', ...parts);

/**
 * Imports flow one way: shared imports nothing of ours; server and client import shared but
 * not each other; a client feature imports nothing of another feature but its `api/` (the
 * endpoints it owns: fetcher, query options, cache merge), never its screens, components or
 * hooks; those are composed in app/.
 */
const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), spec);
      const inside = (dir) => (p) => p === dir || p.startsWith(dir + path.sep);
      const report = (message) => context.report({ node: node.source, message });
      if (inside(srcDir('shared'))(file) && !inside(srcDir('shared'))(target)) {
        report('src/shared imports nothing outside src/shared.');
      } else if (inside(srcDir('server'))(file) && inside(srcDir('client'))(target)) {
        report('The server does not import client code.');
      } else if (inside(srcDir('client'))(file) && inside(srcDir('server'))(target)) {
        report('The client does not import server code.');
      } else if (inside(srcDir('client', 'features'))(file)) {
        const feature = path.relative(srcDir('client', 'features'), file).split(path.sep)[0];
        if (inside(srcDir('client', 'features'))(target)) {
          const [other, folder] = path
            .relative(srcDir('client', 'features'), target)
            .split(path.sep);
          if (other !== feature && folder !== 'api')
            report(
              `Feature "${feature}" may import only the api/ of feature "${other}"; compose the rest in app/.`,
            );
        }
        if (
          inside(srcDir('client', 'app'))(target) &&
          !inside(srcDir('client', 'app', 'layout'))(target)
        ) {
          report('Features do not import app/ (only app/layout components).');
        }
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
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
    plugins: { confab: { rules: { boundaries } } },
    rules: {
      'confab/boundaries': 'error',
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
