import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import {
  createSession,
  hashToken,
  SESSION_TTL_MS,
  sessionCookieName,
  upsertUser,
} from '../../apps/server/src/auth/sessions.ts';
import { loadConfig } from '../../apps/server/src/config/env.ts';
import type { Baseline, BaselineImport } from '../lib/baseline.ts';
import { log } from '../lib/log.ts';
import { benchDir, repoRoot, webDistDir } from '../lib/paths.ts';
import type { BenchServer } from '../lib/server.ts';
import { benchApiKey, startBenchServer } from '../lib/server.ts';
import { ratioOf, round } from '../lib/stats.ts';
import type { RouteBundle } from './bundle.ts';
import { attributeRoutes, readManifest, sizeOf, sourcesByFile } from './bundle.ts';
import { measureFrameworkFloor } from './framework-floor.ts';

/** A request still finishing when its page is closed has no sizes left to read: not counted. */
const ignoreClosed = () => {};

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];

/** Issue 7's limits for the web app, with issue 17's for the first screen and Lighthouse. */
export const webTargets = {
  initialJsGzipBytes: 120 * 1024,
  /** First screen's image bytes ÷ the originals they show. */
  firstPageOverOriginals: 0.15,
  /** …and ÷ the baseline's (`--baseline`) on the same page, per byte of original. */
  firstPageOverBaseline: 0.35,
  lighthousePerformance: 95,
  lighthouseAccessibility: 100,
  /** Largest Contentful Paint of `/`, Lighthouse mobile. */
  lighthouseLcpMs: 2500,
};

export interface LoadedRoute {
  route: string;
  url: string;
  isSignedIn: boolean;
  /** Scripts and styles the browser fetched until the network was idle, sizes from dist/. */
  js: Array<{ file: string; source: string; bytes: number; gzipBytes: number }>;
  css: Array<{ file: string; source: string; bytes: number; gzipBytes: number }>;
  jsGzipBytes: number;
  cssGzipBytes: number;
  jsBytes: number;
  /** Bytes the browser actually received for scripts and styles (the server does not compress). */
  jsCssTransferredBytes: number;
  jsGzipOverTarget: number;
}

export interface PageWeight {
  url: string;
  viewport: { width: number; height: number };
  items: number;
  /** Everything received to show those items: document, scripts, styles, API answers, images. */
  totalBytes: number;
  /** The media of those items alone: images, videos and their posters. */
  mediaBytes: number;
  /** The sum of those items' original files. */
  originalBytes: number;
  mediaOverOriginals: number;
  totalOverOriginals: number;
  byKind: Record<string, number>;
  requests: number;
  /** Tiles shown as video. */
  videoTiles: number;
  /** Media requests that failed or were cancelled (their bytes cannot be read). */
  failedMediaRequests: number;
  /**
   * The sha256 of the items shown, in the order shown: ids are drawn at import, so two
   * servers' catalogs of the same files tell their items apart by content.
   */
  itemSha256s?: string[];
  /**
   * Per tile, in the order shown: its original's bytes and each file it showed with the bytes
   * received for it (headers included), so a ratio can be traced to the tiles that make it.
   */
  tiles?: Array<{
    /** The item's slug, which ends with its id. */
    item: string;
    originalBytes: number;
    files: Array<{ path: string; bytes: number }>;
  }>;
}

export interface LighthouseRun {
  page: string;
  url: string;
  isSignedIn: boolean;
  scores: {
    performance: number | null;
    accessibility: number | null;
    bestPractices: number | null;
  };
  metricsMs: {
    lcp: number | null;
    fcp: number | null;
    tbt: number | null;
    speedIndex: number | null;
  };
  cls: number | null;
  lcpElement: string | null;
  /** The LCP's phases as Lighthouse splits it (TTFB, Load Delay, Load Time, Render Delay), ms. */
  lcpPhases?: Record<string, number>;
  /** What moved, by Lighthouse's layout-shifts audit: the element and its share of the CLS. */
  layoutShifts?: Array<{ node: string | null; score: number }>;
  /** LCP over the floor page's LCP in the same run. */
  lcpOverFloor: number;
  failing: Record<
    string,
    Array<{
      id: string;
      title: string;
      score: number | null;
      displayValue?: string;
      examples?: string[];
    }>
  >;
  runWarnings: string[];
  lighthouseVersion: string;
}

export interface WebBenchResult {
  build: { seconds: number | null; manifest: string };
  /** React, React DOM, React Router and TanStack Query rendering one paragraph (gzip -9). */
  frameworkFloor: { gzipBytes: number; bytes: number; packages: string[] };
  routes: RouteBundle[];
  loaded: LoadedRoute[];
  /** The home page as it opens (GIFs), then its Stickers tab. */
  pageWeights: PageWeight[];
  lighthouse: {
    preset: string;
    chromium: string;
    floor: LighthouseRun | { error: string };
    runs: Array<LighthouseRun | { page: string; error: string }>;
  };
  /** The same pages on the baseline's server (`--baseline`), measured in turn with ours. */
  beforeAfter?: WebBeforeAfter;
  /** Why there is no `beforeAfter` although a baseline was asked for (its import failed). */
  baselineError?: string;
}

export interface WebBeforeAfter {
  /** The baseline's commit, short. */
  commit: string;
  /** How its catalog was made: the same files through its own CLI import. */
  import: { summary: string; seconds: number };
  /** The baseline's page weights, in the order of `pageWeights`. */
  pageWeights: PageWeight[];
  /** The baseline's Lighthouse runs (empty without Lighthouse), in the order of `runs`. */
  lighthouse: Array<LighthouseRun | { page: string; error: string }>;
}

export function buildWebApp(): number {
  log('web: building apps/web (vite build --manifest)');
  const started = performance.now();
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web', '--', '--manifest'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 600_000,
  });
  if (result.status !== 0) {
    throw new Error(`web build failed (${result.status}):\n${String(result.stderr).slice(-3000)}`);
  }
  return (performance.now() - started) / 1000;
}

async function signIn(server: BenchServer): Promise<{ name: string; value: string }> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: server.url,
    DATA_DIR: server.dataDir,
    DATABASE_URL: server.databaseUrl,
  });
  const user = await upsertUser(server.database.db, config, {
    issuer: 'bench',
    subject: 'bench-user',
    email: 'bench@example.com',
    name: 'Bench User',
    picture: null,
  });
  return {
    name: sessionCookieName(config),
    value: await createSession(server.database.db, user.id),
  };
}

/**
 * A session on a baseline's server, written with plain SQL: another commit's session code may
 * take other arguments, but its users and sessions tables (and the token's sha256 in
 * `token_hash`) are the same since migration 0000. Over HTTP, `sticky_session`.
 */
async function signInWithSql(server: BenchServer): Promise<{ name: string; value: string }> {
  const token = randomBytes(32).toString('base64url');
  const {
    rows: [user],
  } = await server.database.pool.query<{ id: string }>(
    `INSERT INTO users (id, issuer, subject, email, name, picture)
     VALUES ($1, 'bench', 'bench-user', 'bench@example.com', 'Bench User', NULL)
     ON CONFLICT (issuer, subject) DO UPDATE SET name = EXCLUDED.name
     RETURNING id`,
    [randomUUID()],
  );
  await server.database.pool.query(
    'INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
    [hashToken(token), user!.id, new Date(Date.now() + SESSION_TTL_MS)],
  );
  return { name: 'sticky_session', value: token };
}

async function newContext(
  browser: Browser,
  server: BenchServer,
  cookie: { name: string; value: string } | undefined,
  viewport = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  if (cookie) await context.addCookies([{ ...cookie, url: server.url }]);
  return context;
}

async function measureLoadedRoute(
  browser: Browser,
  server: BenchServer,
  route: { route: string; path: string; cookie?: { name: string; value: string } },
  sources: Map<string, string>,
): Promise<LoadedRoute> {
  const context = await newContext(browser, server, route.cookie);
  const page = await context.newPage();
  const assets: Array<{ file: string; kind: 'js' | 'css'; transferred: number }> = [];
  const pending: Array<Promise<void>> = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/assets/')) return;
    const kind = url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : '';
    if (!kind) return;
    pending.push(
      request.sizes().then((sizes) => {
        assets.push({
          file: url.pathname.slice(1),
          kind,
          transferred: sizes.responseBodySize + sizes.responseHeadersSize,
        });
      }, ignoreClosed),
    );
  });
  try {
    await page.goto(`${server.url}${route.path}`, { waitUntil: 'networkidle', timeout: 60_000 });
    await Promise.all(pending);
  } finally {
    await context.close();
  }
  const describe = (file: string) => ({
    file,
    source: sources.get(file) ?? '?',
    ...sizeOf(webDistDir, file),
  });
  const js = assets.filter((asset) => asset.kind === 'js').map((asset) => describe(asset.file));
  const css = assets.filter((asset) => asset.kind === 'css').map((asset) => describe(asset.file));
  const jsGzipBytes = js.reduce((total, asset) => total + asset.gzipBytes, 0);
  return {
    route: route.route,
    url: route.path,
    isSignedIn: Boolean(route.cookie),
    js: js.sort((a, b) => b.gzipBytes - a.gzipBytes),
    css,
    jsGzipBytes,
    cssGzipBytes: css.reduce((total, asset) => total + asset.gzipBytes, 0),
    jsBytes: js.reduce((total, asset) => total + asset.bytes, 0),
    jsCssTransferredBytes: assets.reduce((total, asset) => total + asset.transferred, 0),
    jsGzipOverTarget: round(jsGzipBytes / webTargets.initialJsGzipBytes, 3),
  };
}

/** Bytes received until the home page's first `wanted` items are on screen, by kind. */
async function measurePageWeight(
  browser: Browser,
  server: BenchServer,
  cookie: { name: string; value: string },
  wanted: number,
  pagePath: string,
): Promise<PageWeight> {
  const viewport = { width: 1280, height: 800 };
  const context = await newContext(browser, server, cookie, viewport);
  const page = await context.newPage();
  const received: Array<{ url: string; kind: string; bytes: number }> = [];
  const pending: Array<Promise<void>> = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((sizes) => {
        const url = new URL(request.url());
        const kind = url.pathname.startsWith('/media/')
          ? 'media'
          : url.pathname.startsWith('/v1/') || url.pathname.startsWith('/api/')
            ? 'api'
            : url.pathname.startsWith('/assets/')
              ? url.pathname.endsWith('.css')
                ? 'css'
                : url.pathname.endsWith('.js')
                  ? 'js'
                  : 'other'
              : request.resourceType() === 'document'
                ? 'document'
                : 'other';
        received.push({
          url: request.url(),
          kind,
          bytes:
            sizes.responseBodySize +
            sizes.responseHeadersSize +
            sizes.requestHeadersSize +
            sizes.requestBodySize,
        });
      }, ignoreClosed),
    );
  });
  const failedMedia: string[] = [];
  page.on('requestfailed', (request) => {
    // A media request cut short (a video paused or released mid-download) has no sizes to
    // read: counted, so a low figure cannot come from bytes that went uncounted.
    if (new URL(request.url()).pathname.startsWith('/media/')) failedMedia.push(request.url());
  });
  try {
    await page.goto(`${server.url}${pagePath}`, { waitUntil: 'load', timeout: 60_000 });
    const tiles = page.getByTestId('gif-tile');
    await tiles.first().waitFor({ timeout: 60_000 });
    // The grid pages in more items near its end; scroll tile by tile and stop at the last
    // wanted, waiting for each tile's media to show: an image loaded, or a video with a frame
    // to show. Tiles play and release their media as they pass (apps/web's tile observer), so
    // what each one showed is read when it shows it: the image, the video and its poster.
    const count = Math.min(wanted, await tiles.count());
    const shown: Array<{ href: string; sources: string[] }> = [];
    for (let index = 0; index < count; index += 1) {
      const tile = tiles.nth(index);
      await tile.scrollIntoViewIfNeeded();
      // No functions declared inside: tsx would name them with a helper the page lacks.
      await page.waitForFunction(
        (link) => {
          const video = link?.querySelector('video');
          if (video) return video.readyState >= 2;
          const image = link?.querySelector('img');
          return Boolean(image?.complete && image.naturalWidth > 0);
        },
        await tile.elementHandle(),
        { timeout: 60_000 },
      );
      shown.push(
        await tile.evaluate((link) => {
          const image = link.querySelector('img');
          const video = link.querySelector('video');
          return {
            href: link.getAttribute('href') ?? '',
            sources: [image?.currentSrc, video?.currentSrc, video?.poster].filter(
              (source): source is string => Boolean(source),
            ),
          };
        }),
      );
    }
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    const shownSources = new Set(shown.flatMap((tile) => tile.sources));
    const ids = shown.map((tile) => tile.href.split('/').pop()!.split('-').pop()!);
    const originals = await server.database.pool.query<{
      bytes: string;
      count: string;
      sha256s: string[];
      sizes: string[];
    }>(
      `SELECT coalesce(sum(bytes), 0) AS bytes, count(*) AS count,
         coalesce(array_agg(sha256 ORDER BY array_position($1::text[], id)), '{}') AS sha256s,
         coalesce(array_agg(bytes::text ORDER BY array_position($1::text[], id)), '{}') AS sizes
       FROM items WHERE id = ANY($1)`,
      [ids],
    );
    if (Number(originals.rows[0]!.count) !== count) {
      throw new Error(
        `found ${originals.rows[0]!.count} of the ${count} items shown in the database`,
      );
    }
    const originalBytes = Number(originals.rows[0]!.bytes);
    // Images of later items (the grid's next page) are not part of showing the first ones.
    const needed = received.filter(
      (entry) =>
        (entry.kind !== 'media' || shownSources.has(entry.url)) &&
        !(entry.kind === 'api' && /[?&]offset=(?!0(&|$))/.test(entry.url)),
    );
    const byKind: Record<string, number> = {};
    for (const entry of needed) byKind[entry.kind] = (byKind[entry.kind] ?? 0) + entry.bytes;
    const totalBytes = needed.reduce((total, entry) => total + entry.bytes, 0);
    const mediaBytes = byKind.media ?? 0;
    return {
      url: pagePath,
      viewport,
      items: count,
      totalBytes,
      mediaBytes,
      originalBytes,
      mediaOverOriginals: round(ratioOf(mediaBytes, originalBytes), 4),
      totalOverOriginals: round(ratioOf(totalBytes, originalBytes), 4),
      byKind,
      requests: needed.length,
      videoTiles: shown.filter((tile) =>
        tile.sources.some((source) => /\.(mp4|webm)$/.test(source)),
      ).length,
      failedMediaRequests: failedMedia.filter((url) => shownSources.has(url)).length,
      itemSha256s: originals.rows[0]!.sha256s,
      tiles: shown.map((tile, index) => ({
        item: tile.href.split('/').pop()!,
        originalBytes: Number(originals.rows[0]!.sizes[index]),
        files: [...new Set(tile.sources)].map((source) => ({
          path: new URL(source).pathname,
          bytes: received
            .filter((entry) => entry.url === source)
            .reduce((total, entry) => total + entry.bytes, 0),
        })),
      })),
    };
  } finally {
    await context.close();
  }
}

async function runLighthouse(job: {
  url: string;
  cookie?: string;
}): Promise<Omit<LighthouseRun, 'page' | 'isSignedIn' | 'lcpOverFloor'>> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(benchDir, 'web', 'lighthouse-child.ts'),
      JSON.stringify({ ...job, chromePath: chromiumPath }),
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  if (code !== 0 || !stdout)
    throw new Error(`lighthouse exited with ${code}: ${stderr.slice(-1500)}`);
  const parsed = JSON.parse(stdout) as Omit<
    LighthouseRun,
    'page' | 'isSignedIn' | 'lcpOverFloor'
  > & {
    runtimeError?: string;
  };
  if (parsed.runtimeError) throw new Error(`lighthouse: ${parsed.runtimeError}`);
  return parsed;
}

/** The least LCP this Lighthouse setup can report: a one-heading page on loopback. */
async function runFloorLighthouse() {
  const floor = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title></head><body><h1>Hello</h1></body></html>',
    );
  });
  await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = floor.address() as { port: number };
    return await runLighthouse({ url: `http://127.0.0.1:${port}/` });
  } finally {
    floor.close();
  }
}

export interface WebBenchOptions {
  /** A DATA_DIR whose catalog has real media (the import benchmark's). */
  dataDir: string;
  build: boolean;
  lighthouse: boolean;
  firstPageItems: number;
  /**
   * Another commit (`--baseline`) and its catalog of the same files, made by its own import:
   * its server shows the same pages, measured in turn with ours.
   */
  baseline?: { baseline: Baseline; catalog: BaselineImport };
}

/**
 * A server on `dataDir` whose trending order is the same in every run and on both servers.
 * Imported files share their trend (their import time), so which 25 stickers came first
 * followed the import's timing with two workers: the stickers' first screen held other items
 * from run to run and on the baseline's server, and its ratios moved with them (0.32 to 0.43 of
 * the originals over three runs of the same sticker code). Each item's place is set from its
 * file's sha256, then the server starts again, so nothing kept from before answers.
 */
async function startWithFixedTrending(
  dataDir: string,
  options: { root?: string } = {},
): Promise<BenchServer> {
  const first = await startBenchServer(dataDir, {}, options);
  try {
    await first.database.pool.query(`
      UPDATE items i SET trend_score = ranked.score
      FROM (SELECT id, (SELECT max(trend_score) FROM items)
          - 0.001 * row_number() OVER (ORDER BY sha256) AS score FROM items) ranked
      WHERE i.id = ranked.id`);
  } finally {
    await first.stop();
  }
  return startBenchServer(dataDir, {}, options);
}

export async function runWebBench(options: WebBenchOptions): Promise<WebBenchResult> {
  const buildSeconds = options.build ? buildWebApp() : null;
  const manifest = readManifest(webDistDir);
  const routes = attributeRoutes(webDistDir, manifest);
  const sources = sourcesByFile(manifest);
  const frameworkFloor = await measureFrameworkFloor();
  log(`web: framework floor ${(frameworkFloor.gzipBytes / 1024).toFixed(1)} KB gzip`);
  log(`web: starting the server on ${options.dataDir}`);
  const server = await startWithFixedTrending(options.dataDir);
  let before: BenchServer | undefined;
  let browser: Browser | undefined;
  try {
    if (options.baseline) {
      const { baseline, catalog } = options.baseline;
      log(`web: starting ${baseline.commit}'s server on ${catalog.dataDir}`);
      before = await startWithFixedTrending(catalog.dataDir, { root: baseline.root });
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const cookie = await signIn(server);
    const beforeCookie = before ? await signInWithSql(before) : undefined;
    const api = async <T>(pathAndQuery: string): Promise<T> => {
      const response = await fetch(
        `${server.url}${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}api_key=${benchApiKey}`,
      );
      if (!response.ok) throw new Error(`${pathAndQuery}: ${response.status}`);
      return (await response.json()) as T;
    };
    const trending = await api<{ data: Array<{ url: string }> }>('/v1/gifs/trending?limit=1');
    const stickers = await api<{ data: Array<{ url: string }> }>('/v1/stickers/trending?limit=1');
    const first = trending.data[0] ?? stickers.data[0];
    const categories = await api<{ data: Array<{ name_encoded: string }> }>('/v1/gifs/categories');
    const pages = [
      { route: '/landing', path: '/landing' },
      { route: '/', path: '/', cookie },
      { route: '/search/:query', path: '/search/happy', cookie },
      ...(first ? [{ route: '/:type/:slug', path: new URL(first.url).pathname, cookie }] : []),
      { route: '/favorite', path: '/favorite', cookie },
      ...(categories.data[0]
        ? [
            {
              route: '/:category',
              path: `/${encodeURIComponent(categories.data[0].name_encoded)}`,
              cookie,
            },
          ]
        : []),
      { route: '/credits', path: '/credits' },
    ];
    const loaded: LoadedRoute[] = [];
    for (const page of pages) {
      loaded.push(await measureLoadedRoute(browser, server, page, sources));
      log(
        `web:   ${page.path}: ${(loaded.at(-1)!.jsGzipBytes / 1024).toFixed(1)} KB JS gzip loaded`,
      );
    }
    log('web: page weight of the home page');
    const pageWeights: PageWeight[] = [];
    const beforePageWeights: PageWeight[] = [];
    const describeWeight = (weight: PageWeight) =>
      `${weight.items} items: ${(weight.mediaBytes / 1e3).toFixed(0)} KB of images (${weight.mediaOverOriginals}× the originals), ${(weight.totalBytes / 1e3).toFixed(0)} KB in all, originals ${(weight.originalBytes / 1e3).toFixed(0)} KB`;
    for (const pagePath of ['/', '/?type=stickers']) {
      const pageWeight = await measurePageWeight(
        browser,
        server,
        cookie,
        options.firstPageItems,
        pagePath,
      );
      pageWeights.push(pageWeight);
      log(`web:   ${pagePath}: ${describeWeight(pageWeight)}`);
      if (before && beforeCookie) {
        const beforeWeight = await measurePageWeight(
          browser,
          before,
          beforeCookie,
          options.firstPageItems,
          pagePath,
        );
        beforePageWeights.push(beforeWeight);
        log(
          `web:   ${pagePath}, before/after: ${options.baseline!.baseline.commit} ${describeWeight(beforeWeight)}; this commit ${describeWeight(pageWeight)}; image bytes ÷ before ${round(ratioOf(pageWeight.mediaBytes, beforeWeight.mediaBytes), 3)}`,
        );
      }
    }
    await browser.close();

    const lighthouse: WebBenchResult['lighthouse'] = {
      preset: 'Lighthouse default (mobile: Moto G Power, simulated slow 4G, 4× CPU slowdown)',
      chromium: String(spawnSync(chromiumPath, ['--version']).stdout).trim(),
      floor: { error: 'not run' },
      runs: [],
    };
    const beforeLighthouse: Array<LighthouseRun | { page: string; error: string }> = [];
    if (options.lighthouse) {
      log('web: Lighthouse, floor page');
      let floorLcp = Number.NaN;
      try {
        const floor = await runFloorLighthouse();
        floorLcp = floor.metricsMs.lcp ?? Number.NaN;
        lighthouse.floor = {
          ...floor,
          page: 'floor (one heading, loopback)',
          isSignedIn: false,
          lcpOverFloor: 1,
        };
      } catch (error) {
        lighthouse.floor = { error: (error as Error).message };
      }
      const measure = async (
        target: BenchServer,
        label: string,
        page: { page: string; cookie?: { name: string; value: string } },
      ): Promise<LighthouseRun | { page: string; error: string }> => {
        log(`web: Lighthouse ${page.page}${label}`);
        try {
          const job = {
            url: `${target.url}${page.page}`,
            cookie: page.cookie ? `${page.cookie.name}=${page.cookie.value}` : undefined,
          };
          // Lighthouse now and then loses its own trace (NO_NAVSTART, "Please run Lighthouse
          // again"): a page once went unmeasured in a run for it. It is asked once more.
          const run = await runLighthouse(job).catch((error: Error) => {
            if (!/run Lighthouse again/i.test(error.message)) throw error;
            log(`web:   ${page.page}${label}: ${error.message.slice(0, 160)}; once more`);
            return runLighthouse(job);
          });
          log(
            `web:   ${page.page}${label}: performance ${run.scores.performance}, accessibility ${run.scores.accessibility}, best practices ${run.scores.bestPractices}, LCP ${Math.round(run.metricsMs.lcp ?? 0)} ms`,
          );
          return {
            ...run,
            page: page.page,
            isSignedIn: Boolean(page.cookie),
            lcpOverFloor: round(ratioOf(run.metricsMs.lcp ?? Number.NaN, floorLcp), 2),
          };
        } catch (error) {
          return { page: page.page, error: (error as Error).message };
        }
      };
      // With a baseline, each page on both servers in turn, so load weighs on both alike.
      for (const page of [
        { page: '/landing', cookie: undefined, beforeCookie: undefined },
        { page: '/', cookie, beforeCookie },
      ]) {
        lighthouse.runs.push(await measure(server, '', page));
        if (before) {
          beforeLighthouse.push(
            await measure(before, ` (${options.baseline!.baseline.commit})`, {
              page: page.page,
              cookie: page.beforeCookie,
            }),
          );
        }
      }
    }
    return {
      build: {
        seconds: buildSeconds === null ? null : round(buildSeconds, 1),
        manifest: 'apps/web/dist/.vite/manifest.json',
      },
      frameworkFloor,
      routes,
      loaded,
      pageWeights,
      lighthouse,
      ...(options.baseline
        ? {
            beforeAfter: {
              commit: options.baseline.baseline.commit,
              import: {
                summary: options.baseline.catalog.summary,
                seconds: round(options.baseline.catalog.seconds, 1),
              },
              pageWeights: beforePageWeights,
              lighthouse: beforeLighthouse,
            },
          }
        : {}),
    };
  } finally {
    await browser?.close().catch(() => {});
    await server.stop();
    await before?.stop();
  }
}
