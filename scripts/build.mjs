// `npm run build` (and the first half of `npm start`): the web app (Vite) and the server bundled
// to JavaScript (esbuild), each skipped when the content of its inputs is the one its last build
// was made from (docs/operations.md, "Production build"). `--force` builds both anyway.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampName = '.build-stamp';
// Not inputs of either build: tests and their helpers are never bundled.
const skippedFolders = new Set(['node_modules', 'dist', '.vite', 'test-support']);
const isTestFile = (name) => /\.test\.tsx?$/.test(name);

/** Every file under `folders` (sorted, repository-relative), for a build's input hash. */
function listFiles(folders) {
  const files = [];
  const walk = (relative) => {
    const absolute = path.join(repoRoot, relative);
    const stat = fs.statSync(absolute, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isFile()) {
      if (!isTestFile(relative)) files.push(relative);
      return;
    }
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isDirectory() && skippedFolders.has(entry.name)) continue;
      walk(path.join(relative, entry.name));
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

/** SHA-256 over the names and contents of the inputs: a touch alone does not rebuild. */
export function hashInputs(inputs) {
  const hash = crypto.createHash('sha256');
  for (const file of listFiles(inputs)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(repoRoot, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

// The lock file is an input of both: an upgraded dependency can change what either build makes.
const shared = ['packages/contracts', 'package-lock.json', 'scripts/build.mjs'];
export const targets = {
  web: {
    inputs: ['apps/web', ...shared],
    outDir: 'apps/web/dist',
    output: 'apps/web/dist/index.html',
    build: () => {
      const { status } = spawnSync('npm', ['run', '--silent', 'build', '-w', 'apps/web'], {
        cwd: repoRoot,
        stdio: 'inherit',
      });
      if (status !== 0) throw new Error('the web app did not build');
    },
  },
  server: {
    inputs: ['apps/server/src', 'apps/server/package.json', ...shared],
    outDir: 'apps/server/dist',
    output: 'apps/server/dist/bin/main.js',
    build: buildServer,
  },
};

/**
 * One esbuild bundle per entry (split into shared chunks), every package but our own workspace
 * ones left to node_modules: native modules, fonts and data files resolve from there as from
 * the sources. The bundles sit one folder below apps/server/dist, as the sources sit one below
 * apps/server/src, so paths made relative to a module (`../../drizzle`, `../../../web/dist`)
 * name the same folders.
 */
async function buildServer() {
  const esbuild = await import('esbuild');
  const outdir = path.join(repoRoot, 'apps/server/dist/bin');
  fs.rmSync(path.join(repoRoot, 'apps/server/dist'), { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: {
      main: 'apps/server/src/main.ts',
      cli: 'apps/server/src/cli/main.ts',
      'media-worker': 'apps/server/src/catalog/import/media-worker.ts',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    sourcemap: 'linked',
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@sticky/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  // Data a module reads beside itself (catalog/query/synonyms.ts): beside the bundles too.
  fs.copyFileSync(
    path.join(repoRoot, 'apps/server/src/catalog/query/synonym-map.json'),
    path.join(outdir, 'synonym-map.json'),
  );
}

/** Builds `name` unless its stamp matches its inputs; returns whether it built. */
export async function buildTarget(name, { isForced = false } = {}) {
  const target = targets[name];
  const digest = hashInputs(target.inputs);
  const stampFile = path.join(repoRoot, target.outDir, stampName);
  const stamp = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
  if (!isForced && stamp === digest && fs.existsSync(path.join(repoRoot, target.output))) {
    return false;
  }
  fs.rmSync(stampFile, { force: true });
  await target.build();
  fs.writeFileSync(stampFile, `${digest}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const isForced = process.argv.includes('--force');
  const names = process.argv.slice(2).filter((arg) => arg in targets);
  try {
    for (const name of names.length > 0 ? names : Object.keys(targets)) {
      const hasBuilt = await buildTarget(name, { isForced });
      console.log(
        hasBuilt ? `built the ${name}` : `the ${name} is up to date (its inputs did not change)`,
      );
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
