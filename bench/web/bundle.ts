import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { homeRouteModules } from '@sticky/contracts';

/** One entry of Vite's build manifest (dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export interface AssetSize {
  file: string;
  /** The source module(s) Vite built it from, per the manifest. */
  source: string;
  bytes: number;
  gzipBytes: number;
}

export interface RouteBundle {
  route: string;
  /** What the route's first render needs according to the manifest: the entry's static
   * imports, the route's lazy module and its static imports. */
  modules: string[];
  js: AssetSize[];
  css: AssetSize[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsBytes: number;
  cssBytes: number;
}

/**
 * The lazy modules each route of app/router.tsx loads before it renders. Signed-in pages also
 * load the signed-in header (features/navigation/load-signed-in-chrome.ts) alongside.
 */
export const routeModules: Record<string, string[]> = {
  '/landing': ['src/features/landing/index.ts'],
  '/': [...homeRouteModules],
  '/search/:query': [
    'src/features/search/index.ts',
    'src/features/navigation/signed-in-chrome.tsx',
  ],
  '/:type/:slug': ['src/features/item/index.ts', 'src/features/navigation/signed-in-chrome.tsx'],
  '/favorite': ['src/features/favorites/index.ts', 'src/features/navigation/signed-in-chrome.tsx'],
  '/:category': [
    'src/features/categories/index.ts',
    'src/features/navigation/signed-in-chrome.tsx',
  ],
  '/credits': ['src/features/credits/index.ts'],
};

export function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: build with "npm run build -w apps/web -- --manifest"`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

const gzipCache = new Map<string, { bytes: number; gzipBytes: number }>();

/** Size and gzip -9 size of a built file (what a compressing server would send). */
export function sizeOf(distDir: string, file: string): { bytes: number; gzipBytes: number } {
  const absolute = path.join(distDir, file);
  const cached = gzipCache.get(absolute);
  if (cached) return cached;
  const data = fs.readFileSync(absolute);
  const size = { bytes: data.length, gzipBytes: zlib.gzipSync(data, { level: 9 }).length };
  gzipCache.set(absolute, size);
  return size;
}

/** Which source modules each built file comes from (a shared chunk is named by its key). */
export function sourcesByFile(manifest: Manifest): Map<string, string> {
  const sources = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const label = chunk.isEntry
      ? 'entry'
      : key.startsWith('_')
        ? `shared chunk ${chunk.name ?? key}`
        : (chunk.src ?? key);
    sources.set(
      chunk.file,
      sources.has(chunk.file) ? `${sources.get(chunk.file)}, ${label}` : label,
    );
    for (const css of chunk.css ?? []) if (!sources.has(css)) sources.set(css, `css of ${label}`);
  }
  return sources;
}

/** Keys reachable from `keys` through static imports (what loading them pulls in). */
function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`"${key}" is not in the Vite manifest`);
    seen.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

export function entryKey(manifest: Manifest): string {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('the Vite manifest has no entry');
  return entry[0];
}

/**
 * The manifest key of a lazily imported module. Rolldown may fold a module into a shared chunk
 * (e.g. features/favorites, which the item page imports too): then it is the entry's dynamic
 * import named after the module's feature folder.
 */
export function resolveModule(manifest: Manifest, modulePath: string): string {
  if (manifest[modulePath]) return modulePath;
  const bySrc = Object.entries(manifest).find(([, chunk]) => chunk.src === modulePath);
  if (bySrc) return bySrc[0];
  const feature = /features\/([^/]+)\//.exec(modulePath)?.[1];
  const lazy = manifest[entryKey(manifest)]!.dynamicImports ?? [];
  const byName = lazy.find((key) => manifest[key]?.name === feature);
  if (feature && byName) return byName;
  throw new Error(`"${modulePath}" is not in the Vite manifest`);
}

/** Initial JS and CSS of every route, from the manifest alone. */
export function attributeRoutes(distDir: string, manifest: Manifest): RouteBundle[] {
  const sources = sourcesByFile(manifest);
  const entry = entryKey(manifest);
  return Object.entries(routeModules).map(([route, modules]) => {
    const keys = staticClosure(manifest, [
      entry,
      ...modules.map((module) => resolveModule(manifest, module)),
    ]);
    const jsFiles = [...new Set([...keys].map((key) => manifest[key]!.file))];
    const cssFiles = [...new Set([...keys].flatMap((key) => manifest[key]!.css ?? []))];
    const describe = (file: string): AssetSize => ({
      file,
      source: sources.get(file) ?? '?',
      ...sizeOf(distDir, file),
    });
    const js = jsFiles.map(describe).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const css = cssFiles.map(describe).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const sum = (list: AssetSize[], key: 'bytes' | 'gzipBytes') =>
      list.reduce((total, asset) => total + asset[key], 0);
    return {
      route,
      modules,
      js,
      css,
      jsGzipBytes: sum(js, 'gzipBytes'),
      cssGzipBytes: sum(css, 'gzipBytes'),
      jsBytes: sum(js, 'bytes'),
      cssBytes: sum(css, 'bytes'),
    };
  });
}
