import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';

describe('SPA serving', () => {
  let testApp: TestApp;
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(distDir, 'assets'));
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Sticky</title>');
    fs.writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), 'console.log(1)');
    testApp = await createTestApp({}, { webDistDir: distDir });
  });
  afterAll(async () => {
    await testApp.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('falls back to index.html for client-side routes', async () => {
    for (const url of ['/', '/landing', '/search/cats', '/gif/dancing-cat-abc123']) {
      const response = await testApp.app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(200);
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
