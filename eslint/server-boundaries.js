// Import boundaries of apps/server (docs/architecture.md, "Boundaries"): entry points (main.ts,
// server.ts, cli/) → the composition root (app.ts) → HTTP (routes/, plugins/) → services/ →
// the domain (catalog/, auth/, favorites/, analytics/, jobs/, moderation/, integrations/) → db/, with lib/ and config/
// under everything. import-x and its TypeScript resolver are set up in eslint.config.js; these
// are the rules on top. Tests and test-support may reach across (they build apps and rows).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../apps/server/src/', import.meta.url));
const inSrc = (...parts) => path.join(src, ...parts);

const entryPoints = [inSrc('main.ts'), inSrc('server.ts'), inSrc('cli')];
const compositionRoot = inSrc('app.ts');
const http = [inSrc('routes'), inSrc('plugins')];
const services = inSrc('services');
const domain = [
  'catalog',
  'auth',
  'favorites',
  'analytics',
  'jobs',
  'moderation',
  'integrations',
].map((folder) => inSrc(folder));
const base = [inSrc('db'), inSrc('lib'), inSrc('config')];

const zones = [
  {
    target: base,
    from: [...entryPoints, compositionRoot, ...http, services, ...domain],
    message:
      'db/, lib/ and config/ are the bottom layer: they never import the domain, services, routes, plugins or app.ts.',
  },
  {
    target: [inSrc('lib'), inSrc('config')],
    from: inSrc('db'),
    message: 'lib/ and config/ know no database.',
  },
  {
    target: domain,
    from: [...entryPoints, compositionRoot, ...http, services],
    message:
      'The domain never imports routes, plugins, services/ or app.ts: it names the deps it needs, and the app passes them.',
  },
  {
    target: services,
    from: [...entryPoints, compositionRoot, ...http],
    message: 'services/ never imports routes, plugins or app.ts.',
  },
  {
    target: http,
    from: entryPoints,
    message:
      'Routes and plugins reach the database through the domain (app.deps and domain functions), never db/ itself.',
  },
  {
    // Reading what a failed query means touches no database: the error handler may.
    target: http,
    from: inSrc('db'),
    except: ['./database-errors.ts'],
    message:
      'Routes and plugins reach the database through the domain (app.deps and domain functions), never db/ itself.',
  },
  {
    target: compositionRoot,
    from: [...entryPoints, inSrc('db')],
    message:
      'app.ts composes plugins, routes and services; the database comes in through its deps.',
  },
  {
    // Reads never reach writers, drawing or importing: those build on reads, not the reverse.
    target: inSrc('catalog', 'query'),
    from: [
      inSrc('catalog', 'import'),
      inSrc('catalog', 'text'),
      inSrc('catalog', 'activity'),
      inSrc('catalog', 'starter'),
      inSrc('catalog', 'catalog-services.ts'),
      inSrc('catalog', 'maintenance.ts'),
    ],
    message:
      'catalog/query only reads: it never imports catalog/import, text, activity, starter or the per-app factory.',
  },
];

const writeMessage =
  'Queries do not write (docs/architecture.md, "Boundaries"): put writers in catalog/activity, catalog/import or catalog/text.';

/** Raw SQL that changes rows or the schema. */
const writingSql = '/\\b(INSERT|UPDATE|DELETE|TRUNCATE|MERGE|ALTER|CREATE|DROP|GRANT|COPY)\\b/i';

const moduleStateMessage =
  'No module-level state (docs/architecture.md, "Services per app"): make it in a service created per app, CLI command or test app, and pass it as a dependency.';

/** Module-level variables that change, and maps filled at run time, in server code. */
const moduleState = [
  { selector: "Program > VariableDeclaration[kind='let']", message: moduleStateMessage },
  {
    selector: "Program > ExportNamedDeclaration > VariableDeclaration[kind='let']",
    message: moduleStateMessage,
  },
  {
    selector:
      'Program > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Map|WeakMap)$/]',
    message: moduleStateMessage,
  },
];

export const serverBoundaries = [
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        ...moduleState,
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test-support/**'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    files: ['apps/server/src/catalog/query/**/*.ts'],
    ignores: ['apps/server/src/catalog/query/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
        ...moduleState,
        {
          // Drizzle's writers on a database or a transaction: db.insert(…), tx.update(…)…
          selector:
            'CallExpression[callee.property.name=/^(insert|update|delete|transaction)$/][callee.object.name=/^(db|tx|database)$/]',
          message: writeMessage,
        },
        {
          selector:
            'CallExpression[callee.property.name=/^(insert|update|delete|transaction)$/][callee.object.property.name=/^(db|tx)$/]',
          message: writeMessage,
        },
        {
          selector: `TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=${writingSql}]`,
          message: writeMessage,
        },
        {
          selector: `CallExpression[callee.object.name='sql'][callee.property.name='raw'] Literal[value=${writingSql}]`,
          message: writeMessage,
        },
        {
          // client.query('INSERT …') on a pooled connection.
          selector: `CallExpression[callee.property.name='query'] > Literal[value=${writingSql}]`,
          message: writeMessage,
        },
      ],
    },
  },
];
