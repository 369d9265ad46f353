import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, readChangedVersions } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';

/** What a browser sends: the SPA's scripts are most of a first visit's bytes. */
describe('compressed answers', () => {
  let testApp: TestApp;
  let distDir: string;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 50}`))};\n`;
  const image = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(4096, 7)]);
  const builtBrotli = zlib.brotliCompressSync(script, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  });
  const builtGzip = zlib.gzipSync(script, { level: 9 });

  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Sticky</title>');
    fs.writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), script);
    fs.writeFileSync(path.join(distDir, 'assets', 'still-1234.gif'), image);
    // What the web build writes beside a script (apps/web/build/precompress-assets.ts).
    fs.writeFileSync(path.join(distDir, 'assets', 'built-1234.js'), script);
    fs.writeFileSync(path.join(distDir, 'assets', 'built-1234.js.br'), builtBrotli);
    fs.writeFileSync(path.join(distDir, 'assets', 'built-1234.js.gz'), builtGzip);
    testApp = await createTestApp(
      { STICKY_API_KEYS: 'compression-key-0123456789abcdefghijk' },
      { webDistDir: distDir },
    );
    await insertCatalogItems(
      testApp.database,
      Array.from({ length: 10 }, (_, i) => ({ title: `Dancing cat ${i}`, tags: ['cat'] })),
    );
    // Written beside the app: it hears of them now, not by a notification in a later test.
    await readChangedVersions(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('sends scripts brotli-compressed to browsers, byte for byte the same once decoded', async () => {
    const response = await testApp.app.inject({
      url: '/assets/app-1234.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(script.length / 4);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends the files the build compressed as they are, with no work per request', async () => {
    for (const [accepted, encoding, file] of [
      ['gzip, deflate, br', 'br', builtBrotli],
      ['gzip', 'gzip', builtGzip],
    ] as const) {
      const response = await testApp.app.inject({
        url: '/assets/built-1234.js',
        headers: { 'accept-encoding': accepted },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.rawPayload.equals(file)).toBe(true);
    }
    const plain = await testApp.app.inject({ url: '/assets/built-1234.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends /v1 JSON gzip-compressed when only gzip is accepted', async () => {
    const response = await testApp.app.inject({
      url: '/v1/gifs/trending?api_key=compression-key-0123456789abcdefghijk&limit=10',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(zlib.gunzipSync(response.rawPayload).toString());
    expect(body.data).toHaveLength(10);
  });

  it('sends a page of search results compressed whole, with its length', async () => {
    await insertCatalogItems(
      testApp.database,
      Array.from({ length: 30 }, (_, i) => ({ title: `Parrot party ${i}`, tags: ['parrot'] })),
    );
    // Else the notification of these rows may move the catalog version during the next test,
    // between two asks that must get the same kept page.
    await readChangedVersions(testApp);
    const response = await testApp.app.inject({
      url: '/v1/gifs/search?api_key=compression-key-0123456789abcdefghijk&q=parrot&limit=25',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    const json = zlib.brotliDecompressSync(response.rawPayload).toString();
    // Above what the compression plugin would otherwise stream in chunks of unknown total.
    expect(json.length).toBeGreaterThan(64 * 1024);
    expect(JSON.parse(json).data).toHaveLength(25);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.headers['transfer-encoding']).toBeUndefined();
  });

  it('compresses a kept trending page once for everyone, and a new one after a change', async () => {
    const url = '/v1/gifs/trending?api_key=compression-key-0123456789abcdefghijk&limit=5';
    const ask = (encoding: string) =>
      testApp.app.inject({ url, headers: { 'accept-encoding': encoding } });
    const first = await ask('br, gzip');
    const second = await ask('gzip, deflate, br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    // The very same bytes: compressed once, not per request.
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const decoded = JSON.parse(zlib.brotliDecompressSync(first.rawPayload).toString());
    expect(decoded.data).toHaveLength(5);
    expect(decoded.meta.response_id).toMatch(/^[0-9a-f]{40}$/);
    const gzipped = await ask('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzipped.rawPayload).toString())).toEqual(decoded);
    const plain = await ask('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body)).toEqual(decoded);

    await insertCatalogItems(testApp.database, [
      { title: 'Brand new cat', tags: ['cat'], trendScore: 1_000 },
    ]);
    await expect
      .poll(async () => {
        const body = (await ask('br')).rawPayload;
        return JSON.parse(zlib.brotliDecompressSync(body).toString()).data[0].title;
      })
      .toBe('Brand new cat');
  });

  it('leaves answers alone for clients that do not ask, and images always', async () => {
    const plain = await testApp.app.inject('/assets/app-1234.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const gif = await testApp.app.inject({
      url: '/assets/still-1234.gif',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gif.statusCode).toBe(200);
    expect(gif.headers['content-encoding']).toBeUndefined();
    expect(gif.rawPayload.equals(image)).toBe(true);
  });
});
