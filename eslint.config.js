import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { flatConfigs as importXConfigs } from 'eslint-plugin-import-x';
import importXPlugin from 'eslint-plugin-import-x';
import { serverBoundaries } from './eslint/server-boundaries.js';
import { webBoundaries } from './eslint/web-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    // Import cycles anywhere fail the lint (docs/architecture.md, "Boundaries").
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importXPlugin },
    settings: {
      'import-x/extensions': importXConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importXConfigs.typescript.settings['import-x/parsers'],
      // eslint-import-resolver-typescript 3.6 (enhanced-resolve): later versions need native
      // resolver bindings that our package registry does not carry for every platform, and
      // `npm ci` then refuses the lockfile (docs/architecture.md, "Runtime").
      'import-x/resolver': {
        typescript: {
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
        },
      },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  ...serverBoundaries,
  ...webBoundaries,
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['apps/web/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Components get data through feature api modules, never by calling fetch themselves.
    files: ['apps/web/src/**/*.tsx'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use a feature api module.' }],
    },
  },
  {
    // Tool configs and test-runner setup files must export default, and a declaration of an
    // untyped package says what the package exports.
    files: ['**/*.config.{ts,js,mjs}', 'eslint.config.js', '**/global-setup.ts', '**/*.d.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  prettier,
);
