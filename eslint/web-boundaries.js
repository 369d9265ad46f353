// Import boundaries of apps/web (docs/architecture.md, "Boundaries"): app → features → shared,
// in the manner of bulletproof-react. import-x and its TypeScript resolver are set up in
// eslint.config.js; these are the rules on top.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../apps/web/src/', import.meta.url));
const inSrc = (...parts) => path.join(src, ...parts);

/** Shared code: used by features and app, never using them. */
const shared = ['components', 'hooks', 'lib', 'types', 'utils'];

/**
 * Which features a feature may use, each through its `index.ts` only. Every folder in
 * src/features must be listed here: a new feature starts by saying what it builds on.
 */
export const featureDependencies = {
  'admin-overview': ['auth', 'content'],
  auth: [],
  categories: ['content'],
  content: [],
  credits: [],
  favorites: ['auth', 'content'],
  home: ['content'],
  integrations: ['auth', 'content'],
  item: ['auth', 'content', 'favorites', 'uploads'],
  landing: ['auth'],
  navigation: ['auth', 'content'],
  search: ['content'],
  settings: ['auth', 'content'],
  uploads: ['auth', 'content'],
};

const featureFolders = fs
  .readdirSync(inSrc('features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const undeclared = featureFolders.filter((name) => !(name in featureDependencies));
if (undeclared.length > 0) {
  throw new Error(
    `eslint/web-boundaries.js: declare the features ${undeclared.join(', ')} uses in featureDependencies`,
  );
}

const zones = [
  ...Object.entries(featureDependencies).map(([feature, uses]) => ({
    target: inSrc('features', feature),
    from: inSrc('features'),
    except: [`./${feature}`, ...uses.map((other) => `./${other}/index.ts`)],
    message:
      uses.length > 0
        ? `features/${feature} may use only ${uses.map((other) => `features/${other}/index.ts`).join(', ')} of the other features (featureDependencies in eslint/web-boundaries.js).`
        : `features/${feature} uses no other feature (featureDependencies in eslint/web-boundaries.js).`,
  })),
  {
    target: inSrc('features'),
    from: inSrc('app'),
    message: 'Features never import app: the app composes them, not the other way round.',
  },
  {
    // The app and the test helpers use a feature as others do, through its index.ts.
    target: [inSrc('app'), inSrc('test-support')],
    from: inSrc('features', '**'),
    except: [inSrc('features', '*', 'index.ts')],
    message: 'Use a feature through its index.ts.',
  },
  {
    target: shared.map((folder) => inSrc(folder)),
    from: [inSrc('features'), inSrc('app')],
    message: 'Shared code (components, hooks, lib) never imports features or app.',
  },
];

export const webBoundaries = [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    // Test helpers are for tests: production code never imports them.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/test-support/*', '**/test-support/*'],
              message: 'test-support is for tests only.',
            },
          ],
        },
      ],
    },
  },
];
