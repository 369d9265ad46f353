import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  describeTrendingRequest,
  firstPageElementId,
  sessionElementId,
  smallScreenQuery,
} from '@sticky/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renditions } from '../db/schema.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';

describe('SPA serving', () => {
  let testApp: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Sticky</title>');
    fs.writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), 'console.log(1)');
    testApp = await createTestApp({}, { webDistDir: distDir });
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('falls back to index.html for client-side routes', async () => {
    for (const url of ['/', '/landing', '/search/cats', '/gif/dancing-cat-abc123']) {
      const response = await testApp.app.inject({ url, headers: { accept: 'text/html' } });
      // An item page with no such item is a 404 for crawlers; the app still draws its answer.
      expect(response.statusCode, url).toBe(url.startsWith('/gif/') ? 404 : 200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>Sticky</title>');
    }
  });

  it("asks the browser to fetch the landing page's hero image with the page, and only there", async () => {
    const landing = await testApp.app.inject({
      url: '/landing?error=access_denied',
      headers: { accept: 'text/html' },
    });
    expect(landing.headers.link).toBe('</landing/hero.svg>; rel=preload; as=image');
    const home = await testApp.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(home.headers.link).toBeUndefined();
  });

  it('serves hashed assets as immutable', async () => {
    const response = await testApp.app.inject('/assets/app-1234.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown API and media paths with a typed JSON error, not the SPA', async () => {
    const html = { accept: 'text/html' };
    for (const url of ['/api/nope', '/api', '/media/nope.gif']) {
      const api = await testApp.app.inject({ url, headers: html });
      expect(api.statusCode, url).toBe(404);
      expect(api.json(), url).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    const { cookie } = await signInAs(testApp);
    for (const url of ['/v1/nope', '/v1', '/v1?x=1']) {
      const v1 = await testApp.app.inject({ url, headers: { ...html, cookie } });
      expect(v1.statusCode, url).toBe(404);
      expect(v1.json().meta, url).toMatchObject({ status: 404 });
      expect(v1.json().meta.response_id).not.toBe('');
    }
    // /v1 tells a caller it does not know nothing about which paths exist.
    const stranger = await testApp.app.inject({ url: '/v1/nope', headers: html });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.json().meta).toMatchObject({ status: 401 });
  });

  it('sends strict security headers on pages', async () => {
    const response = await testApp.app.inject({
      url: '/landing',
      headers: { accept: 'text/html' },
    });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['permissions-policy']).toContain('camera=()');
  });
});

describe('the first page of trending in the HTML of /', () => {
  let testApp: TestApp;
  let distDir: string;
  // As the web's: the session check asked for with the page.
  const sessionCheckPreload =
    '<link rel="preload" href="/api/auth/me" as="fetch" crossorigin="anonymous" />';
  const indexHtml = `<!doctype html><html><head><title>Sticky</title>${sessionCheckPreload}</head><body><div id="root"></div></body></html>`;
  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), indexHtml);
    // Vite's manifest of a build: the entry and its shared chunk (index.html preloads both),
    // the home page and the header loaded lazily, with a chunk of their own and the shared one.
    fs.mkdirSync(path.join(distDir, '.vite'));
    fs.writeFileSync(
      path.join(distDir, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': {
          file: 'assets/index-a1.js',
          isEntry: true,
          imports: ['_react-b2.js'],
          dynamicImports: ['src/features/home/index.ts', 'src/features/landing/index.ts'],
          css: ['assets/index-c3.css'],
        },
        '_react-b2.js': { file: 'assets/react-b2.js' },
        '_content-d4.js': { file: 'assets/content-d4.js', imports: ['_react-b2.js'] },
        'src/features/home/index.ts': {
          file: 'assets/home-e5.js',
          isDynamicEntry: true,
          imports: ['_content-d4.js', '_react-b2.js'],
        },
        'src/features/navigation/signed-in-chrome.tsx': {
          file: 'assets/signed-in-chrome-f6.js',
          isDynamicEntry: true,
          imports: ['_content-d4.js'],
        },
        'src/features/landing/index.ts': { file: 'assets/landing-g7.js', isDynamicEntry: true },
      }),
    );
    testApp = await createTestApp({}, { webDistDir: distDir });
    await insertCatalogItems(testApp.database, [
      // A title that tries to close the element it is carried in.
      { title: 'Waving </script><script>alert(1)</script> cat', trendScore: 3 },
      { title: 'Dancing dog', trendScore: 2 },
      { title: 'Rated R', trendScore: 9, rating: 'r' },
      { title: 'Sticky sticker', trendScore: 1, type: 'sticker' },
    ]);
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  const getHome = (url: string, cookie?: string) =>
    testApp.app.inject({
      url,
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    });

  /** The element the page carries, as the browser would read it. */
  function readFirstPage(html: string) {
    const match = new RegExp(
      `<script type="application/json" id="${firstPageElementId}" data-request="([^"]*)">(.*?)</script>`,
      's',
    ).exec(html);
    if (!match) return null;
    return { request: match[1]!.replaceAll('&amp;', '&'), body: JSON.parse(match[2]!) };
  }

  it('carries, for a signed-in request, what /v1 answers the home page’s first request', async () => {
    const { cookie } = await signInAs(testApp);
    const response = await getHome('/', cookie);
    expect(response.statusCode).toBe(200);
    const firstPage = readFirstPage(response.body);
    expect(firstPage?.request).toBe(
      describeTrendingRequest({ type: 'gifs', limit: 25, offset: 0, rating: 'g' }),
    );
    const v1 = await testApp.app.inject({
      url: '/v1/gifs/trending?limit=25&offset=0&rating=g&api_key=sticky-web',
      headers: { cookie },
    });
    const answer = v1.json();
    // /v1's items, each with only the renditions its tile is drawn from.
    type Item = { images: Record<string, unknown> };
    const tiles = answer.data.map((item: Item) => ({
      ...item,
      images: {
        fixed_width: item.images.fixed_width,
        fixed_width_still: item.images.fixed_width_still,
      },
    }));
    expect(tiles[0].images.fixed_width).toMatchObject({ url: expect.any(String), width: '200' });
    expect(tiles[0].images.fixed_width_still).toMatchObject({ url: expect.any(String) });
    expect(firstPage?.body.data).toEqual(tiles);
    expect(JSON.stringify(firstPage?.body)).not.toContain('"downsized');
    expect(firstPage?.body.pagination).toEqual(answer.pagination);
    expect(firstPage?.body.meta).toMatchObject({ status: 200, response_id: expect.any(String) });
    expect(firstPage?.body.data.map((item: { title: string }) => item.title)).toEqual([
      'Waving </script><script>alert(1)</script> cat',
      'Dancing dog',
    ]);
    // Data, not script: two elements (the session, the page), closed where they end, nothing
    // inside them closes them early.
    expect(response.body.match(/<script/g)).toHaveLength(2);
    expect(response.body).toContain(
      'Waving \\u003c/script>\\u003cscript>alert(1)\\u003c/script> cat',
    );
    // Inside the head, before the app's own markup.
    expect(response.body.indexOf(firstPageElementId)).toBeLessThan(
      response.body.indexOf('</head>'),
    );
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.headers.vary).toMatch(/cookie/i);
    // The CSP is unchanged: no inline script is allowed, and none is needed.
    expect(String(response.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  });

  it("preloads, for a signed-in request, the home page's lazy scripts the entry does not load", async () => {
    const modulePreloads = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]);
    const { cookie } = await signInAs(testApp);
    const signedIn = await getHome('/?type=stickers', cookie);
    expect(modulePreloads(signedIn.body).sort()).toEqual([
      '/assets/content-d4.js',
      '/assets/home-e5.js',
      '/assets/signed-in-chrome-f6.js',
    ]);
    expect(signedIn.body.indexOf('rel="modulepreload"')).toBeLessThan(
      signedIn.body.indexOf('</head>'),
    );
    // Signed out, `/` becomes the landing page: the home page's scripts would be wasted bytes.
    expect(modulePreloads((await getHome('/')).body)).toEqual([]);
    // The manifest itself stays on the server.
    const manifest = await testApp.app.inject('/.vite/manifest.json');
    expect(manifest.statusCode).toBe(404);
    expect(manifest.body).not.toContain('src/features');
  });

  it('carries the type the address asks for, and GIFs for a type it does not know', async () => {
    const { cookie } = await signInAs(testApp);
    const stickers = readFirstPage((await getHome('/?type=stickers', cookie)).body);
    expect(stickers?.request).toBe(
      describeTrendingRequest({ type: 'stickers', limit: 25, offset: 0, rating: 'g' }),
    );
    expect(stickers?.body.data.map((item: { title: string }) => item.title)).toEqual([
      'Sticky sticker',
    ]);
    const unknown = readFirstPage((await getHome('/?type=videos', cookie)).body);
    expect(unknown?.request).toMatch(/^gifs\/trending\?/);
  });

  it('gives a signed-out request, or one with a dead session, none of the catalog', async () => {
    for (const cookie of [
      undefined,
      'sticky_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const response = await getHome('/', cookie);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(indexHtml);
      expect(response.body).not.toContain('Dancing dog');
      // The same address answers differently with a session: no shared cache may keep it.
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.headers.vary).toMatch(/cookie/i);
    }
  });

  it('sends pages compressed as the browser accepts: brotli, else gzip, else as they are', async () => {
    const { cookie } = await signInAs(testApp);
    // Each answer has its own response id; the rest is the same page.
    const withoutId = (html: string) => html.replace(/"response_id":"[^"]*"/, '');
    const plain = withoutId((await getHome('/', cookie)).body);
    const ask = (encoding: string) =>
      testApp.app.inject({
        url: '/',
        headers: { accept: 'text/html', cookie, 'accept-encoding': encoding },
      });
    const brotli = await ask('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(withoutId(zlib.brotliDecompressSync(brotli.rawPayload).toString())).toBe(plain);
    // The first page is most of the page, and compresses well.
    expect(brotli.rawPayload.length).toBeLessThan(plain.length / 3);
    const gzipped = await ask('gzip, br;q=0');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(withoutId(zlib.gunzipSync(gzipped.rawPayload).toString())).toBe(plain);
    const identity = await ask('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(withoutId(identity.body)).toBe(plain);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers.vary).toMatch(/cookie/i);
    const landing = await testApp.app.inject({
      url: '/landing',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(zlib.brotliDecompressSync(landing.rawPayload).toString()).toBe(indexHtml);
  });

  /** The session a page carries, as the browser would read it. */
  function readSession(html: string) {
    const match = new RegExp(
      `<script type="application/json" id="${sessionElementId}">(.*?)</script>`,
      's',
    ).exec(html);
    return match ? JSON.parse(match[1]!) : null;
  }

  it('carries the session on every page of a signed-in request, as /api/auth/me answers it', async () => {
    // A name that tries to close the element it is carried in.
    const { cookie } = await signInAs(testApp, { name: 'Eve </script><script>alert(1)</script>' });
    const me = await testApp.app.inject({ url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    for (const url of ['/', '/search/dog', '/favorite', '/gif/dancing-dog-abc', '/landing']) {
      const response = await getHome(url, cookie);
      expect(readSession(response.body), url).toEqual(me.json());
      // The page has the answer: asking for it again would be bytes before the first tiles.
      expect(response.body, url).not.toContain(sessionCheckPreload);
      expect(response.body, url).toContain('Eve \\u003c/script>\\u003cscript>alert(1)');
      expect(response.body.indexOf(sessionElementId), url).toBeLessThan(
        response.body.indexOf('</head>'),
      );
      // It is this person's page: no shared cache may keep it.
      expect(response.headers['cache-control'], url).toBe('private, no-cache');
      expect(response.headers.vary, url).toMatch(/cookie/i);
    }
    // A signed-in person is sent on from the landing page: its hero image is not for them.
    expect((await getHome('/landing', cookie)).headers.link).toBeUndefined();
  });

  it('carries the catalog only on the home page, and nothing for a signed-out request', async () => {
    const { cookie } = await signInAs(testApp);
    for (const url of ['/search/dog', '/favorite', '/gif/dancing-dog-abc', '/landing']) {
      const response = await getHome(url, cookie);
      expect(readFirstPage(response.body), url).toBeNull();
      expect(response.body, url).not.toContain('Dancing dog');
    }
    for (const url of ['/search/dog', '/landing', '/credits']) {
      for (const signedOut of [
        undefined,
        'sticky_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      ]) {
        const response = await getHome(url, signedOut);
        expect(response.body, url).toBe(indexHtml);
        expect(response.headers.vary, url).toMatch(/cookie/i);
      }
    }
  });
});

describe('the first tiles of / preloaded', () => {
  let testApp: TestApp;
  let ids: string[];
  let distDir: string;
  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<html><head></head><body></body></html>');
    testApp = await createTestApp({}, { webDistDir: distDir });
    ids = await insertCatalogItems(
      testApp.database,
      // 480 × 360: on a phone's two columns the third row starts at 76.9 % of the grid's
      // width, the fourth at 115.3 %, below the fold.
      [8, 7, 6, 5, 4, 3, 2, 1].map((trendScore) => ({
        title: `Tile ${9 - trendScore}`,
        trendScore,
        hasMp4: true,
      })),
    );
    // The first tile's WebP is heavy: it shows as video, and paints its poster first.
    await testApp.database.db
      .update(renditions)
      .set({ bytes: 10_000_000 })
      .where(and(eq(renditions.itemId, ids[0]!), eq(renditions.format, 'webp')));
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it("preloads what the tiles on a phone's first screen paint first, as the web shows them", async () => {
    const { cookie } = await signInAs(testApp);
    const html = (await testApp.app.inject({ url: '/', headers: { accept: 'text/html', cookie } }))
      .body;
    const v1 = await testApp.app.inject({
      url: '/v1/gifs/trending?limit=25&rating=g&api_key=sticky-web',
      headers: { cookie },
    });
    const items = v1.json().data as Array<{
      images: { fixed_width: { webp: string }; fixed_width_still: { url: string } };
    }>;
    const preloads = [...html.matchAll(/<link rel="preload" as="image" href="([^"]*)"([^>]*)>/g)];
    expect(preloads.map((match) => match[1]!.replaceAll('&amp;', '&'))).toEqual([
      items[0]!.images.fixed_width_still.url,
      items[1]!.images.fixed_width.webp,
      items[2]!.images.fixed_width.webp,
      items[3]!.images.fixed_width.webp,
      items[4]!.images.fixed_width.webp,
      items[5]!.images.fixed_width.webp,
    ]);
    expect(preloads[1]![2]).toContain('type="image/webp"');
    expect(preloads[0]![2]).not.toContain('type=');
    for (const preload of preloads) expect(preload[2]).toContain('fetchpriority="high"');
    // A video's poster shows on a phone only (docs/web.md, "Media"): a wider screen skips it.
    expect(preloads[0]![2]).toContain(`media="${smallScreenQuery}"`);
    for (const preload of preloads.slice(1)) expect(preload[2]).not.toContain('media=');
  });
});

describe('the HTML of / in GIPHY mode', () => {
  it('carries nothing: the app asks GIPHY itself', async () => {
    const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<html><head></head><body></body></html>');
    const testApp = await createTestApp(
      { GIPHY_API_KEY: 'test-key', GIPHY_API_URL: 'http://giphy.test/v1' },
      { webDistDir: distDir },
    );
    try {
      await insertCatalogItems(testApp.database, [{ title: 'Local only', trendScore: 1 }]);
      const { cookie } = await signInAs(testApp);
      const response = await testApp.app.inject({
        url: '/',
        headers: { accept: 'text/html', cookie },
      });
      expect(response.body).not.toContain(firstPageElementId);
      // The session is the app's own either way.
      expect(response.body).toContain(sessionElementId);
    } finally {
      await testApp.close();
      fs.rmSync(distDir, { recursive: true, force: true });
    }
  });
});
