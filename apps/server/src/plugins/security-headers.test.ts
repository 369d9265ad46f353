import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy } from './security-headers.ts';
import { contentAddressedPath } from '../storage/media-paths.ts';
import { loadConfig } from '../config/env.ts';
import { webDistDir } from '../routes/spa.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { findSetCookie, signInByInject, startTestIssuer } from '../test-support/oidc.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { hasWebBuild } from '../test-support/web-build.ts';
import { gradeResponse, parseCsp } from '../test-support/observatory-rules.ts';
import type { ObservedResponse } from '../test-support/observatory-rules.ts';

const OBSERVATORY_ORIGIN = 'https://http-observatory.security.mozilla.org';

/** A dist folder shaped like Vite's output, so pages are served even without a build. */
function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-headers-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Sticky</title>' +
      '<script type="module" crossorigin src="/assets/index-abc.js"></script>' +
      '<link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>' +
      '<body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.css'), 'body{}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

const htmlPages = ['/', '/landing', '/search/cats', '/gif/dancing-cat-abc123', '/favorite'];

interface Probe {
  name: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  payload?: string;
}

/** One of every kind of answer the server gives: pages, assets, API, errors of each layer. */
function probes(cookie: string): Probe[] {
  const html = { accept: 'text/html' };
  return [
    ...htmlPages.map((url) => ({ name: `page ${url}`, url, headers: html })),
    { name: 'asset', url: '/assets/index-abc.js' },
    { name: 'favicon', url: '/favicon.svg' },
    { name: 'config', url: '/api/config' },
    { name: 'me signed out', url: '/api/auth/me' },
    { name: 'me signed in', url: '/api/auth/me', headers: { cookie } },
    { name: 'v1 trending', url: '/v1/gifs/trending', headers: { cookie } },
    { name: 'v1 unauthorised', url: '/v1/gifs/trending' },
    { name: 'v1 not found', url: '/v1/nope', headers: { cookie } },
    { name: 'v1 bad url', url: '/v1/gifs/%zz', headers: { cookie } },
    { name: 'api not found', url: '/api/nope', headers: html },
    { name: 'health', url: '/healthz' },
    { name: 'ready', url: '/readyz' },
    { name: 'sign-in start', url: '/api/auth/googleAuth' },
    { name: 'issuer discovery', url: '/oidc/.well-known/openid-configuration' },
    { name: 'API reference page', url: '/api/docs/', headers: html },
    { name: 'API reference script', url: '/api/docs/js/scalar.js' },
    { name: 'OpenAPI document', url: '/api/docs/openapi.json' },
    {
      name: 'cross-site write',
      url: '/api/favorites/abc',
      method: 'PUT',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    },
    {
      name: 'oversized body',
      url: '/api/favorites/merge',
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ ids: Array.from({ length: 9000 }, (_, i) => `id${i}`) }),
    },
  ];
}

function observed(response: { headers: ObservedResponse['headers']; body: string }) {
  return { headers: response.headers, body: response.body };
}

function directives(csp: unknown): Map<string, Set<string>> {
  return parseCsp([String(csp)]).directives;
}

describe('security headers on every answer', () => {
  let distDir: string;
  let plain: TestApp;
  let secure: TestApp;
  let plainCookie: string;
  let secureCookie: string;

  beforeAll(async () => {
    distDir = makeDist();
    plain = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' }, { webDistDir: distDir });
    secure = await createTestApp({ PUBLIC_URL: 'https://sticky.example' }, { webDistDir: distDir });
    plainCookie = (await signInAs(plain)).cookie;
    secureCookie = (await signInAs(secure)).cookie;
  });
  afterAll(async () => {
    await plain?.close();
    await secure?.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('sends the baseline on every kind of answer, over http and https', async () => {
    for (const [testApp, cookie, isHttps] of [
      [plain, plainCookie, false],
      [secure, secureCookie, true],
    ] as const) {
      for (const probe of probes(cookie)) {
        const response = await testApp.app.inject({
          method: probe.method ?? 'GET',
          url: probe.url,
          headers: probe.headers,
          payload: probe.payload,
        });
        const label = `${isHttps ? 'https' : 'http'} ${probe.name} (${response.statusCode})`;
        const csp = directives(response.headers['content-security-policy']);
        const scriptSrc = csp.get('script-src') ?? csp.get('default-src');
        expect(scriptSrc, label).toBeDefined();
        for (const unsafe of [
          "'unsafe-inline'",
          "'unsafe-eval'",
          '*',
          'data:',
          'http:',
          'https:',
        ]) {
          expect(scriptSrc!.has(unsafe), `${label}: script-src ${unsafe}`).toBe(false);
        }
        expect([...(csp.get('frame-ancestors') ?? [])], label).toEqual(["'none'"]);
        expect(response.headers['x-content-type-options'], label).toBe('nosniff');
        expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
        expect(String(response.headers['permissions-policy']), label).toMatch(
          /camera=\(\), microphone=\(\), geolocation=\(\)/,
        );
        const hsts = response.headers['strict-transport-security'];
        if (isHttps) {
          expect(hsts, label).toBe('max-age=63072000; includeSubDomains; preload');
        } else {
          expect(hsts, label).toBeUndefined();
        }
      }
    }
  });

  it('answers a media file, or its absence, with the headers of a file and none of a page', async () => {
    for (const [testApp, isHttps] of [
      [plain, false],
      [secure, true],
    ] as const) {
      const bytes = Buffer.from('GIF89a, or near enough: the route trusts our names');
      const relative = contentAddressedPath(
        createHash('sha256').update(bytes).digest('hex'),
        'gif',
      );
      const file = path.join(testApp.config.mediaDir, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
      for (const url of [`/media/${relative}`, '/media/00/00/nope.gif']) {
        const response = await testApp.app.inject(url);
        const label = `${isHttps ? 'https' : 'http'} ${url} (${response.statusCode})`;
        // Opened on its own, a file is a sandboxed document that loads nothing and is never framed.
        const csp = directives(response.headers['content-security-policy']);
        expect([...(csp.get('default-src') ?? [])], label).toEqual(["'none'"]);
        expect([...(csp.get('frame-ancestors') ?? [])], label).toEqual(["'none'"]);
        expect(csp.has('sandbox'), label).toBe(true);
        expect(response.headers['x-content-type-options'], label).toBe('nosniff');
        // Embeddable on other sites on purpose (docs/security.md, "Headers").
        expect(response.headers['cross-origin-resource-policy'], label).toBe('cross-origin');
        expect(response.headers['strict-transport-security'], label).toBe(
          isHttps ? 'max-age=63072000; includeSubDomains; preload' : undefined,
        );
        for (const pageOnly of [
          'permissions-policy',
          'referrer-policy',
          'cross-origin-opener-policy',
          'origin-agent-cluster',
          'x-frame-options',
          'x-dns-prefetch-control',
          'x-download-options',
          'x-permitted-cross-domain-policies',
          'x-xss-protection',
        ]) {
          expect(response.headers[pageOnly], `${label}: ${pageOnly}`).toBeUndefined();
        }
      }
      const served = await testApp.app.inject(`/media/${relative}`);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('earns an A+ on the Observatory rules for every page served over https', async () => {
    for (const url of htmlPages) {
      const page = await secure.app.inject({ url, headers: { accept: 'text/html' } });
      const preflight = await secure.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: OBSERVATORY_ORIGIN, 'access-control-request-method': 'GET' },
      });
      const graded = gradeResponse({
        page: observed(page),
        preflight: observed(preflight),
        isHttps: true,
        // The TLS proxy in front of an https deployment redirects http to https.
        redirection: 'to-https',
      });
      expect(graded.results, url).toMatchObject({
        'content-security-policy': 'csp-implemented-with-unsafe-inline-in-style-src-only',
        'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
        'x-frame-options': 'x-frame-options-implemented-via-csp',
        'cross-origin-resource-policy': 'corp-implemented-with-same-site',
        'referrer-policy': 'referrer-policy-private',
        'x-content-type-options': 'x-content-type-options-nosniff',
        'cross-origin-resource-sharing': 'cross-origin-resource-sharing-not-implemented',
        'subresource-integrity': 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
      });
      expect(graded.grade, `${url}: ${JSON.stringify(graded)}`).toBe('A+');
      expect(graded.score).toBeGreaterThanOrEqual(115);
    }
  });

  it('loses points over plain http only for what plain http cannot have', async () => {
    const page = await plain.app.inject({ url: '/landing', headers: { accept: 'text/html' } });
    const graded = gradeResponse({ page: observed(page), isHttps: false, redirection: 'missing' });
    const deductions = Object.entries(graded.results).filter(([, result]) =>
      /missing|not-implemented-no-https/.test(result),
    );
    expect(deductions.map(([test]) => test).sort()).toEqual([
      'redirection',
      'strict-transport-security',
    ]);
  });

  it('grades the session cookie a real sign-in sets as secure, HttpOnly and SameSite over https', async () => {
    const issuer = await startTestIssuer({
      redirectUri: 'https://sticky.example/api/auth/callback',
    });
    const signingIn = await createTestApp({ PUBLIC_URL: 'https://sticky.example', ...issuer.env });
    try {
      const callback = await signInByInject(signingIn, { name: 'Ada', email: 'ada@example.com' });
      expect(callback.statusCode).toBe(302);
      // The server's own Set-Cookie headers: the new session, and the spent sign-in flow.
      expect(findSetCookie(callback, '__Host-sticky_session').value).not.toBe('');
      const graded = gradeResponse({
        page: observed(callback),
        isHttps: true,
        redirection: 'to-https',
      });
      expect(graded.results.cookies).toBe('cookies-secure-with-httponly-sessions-and-samesite');
      // The control: the same grading finds a session cookie without HttpOnly.
      const setCookies = callback.headers['set-cookie'] as string[];
      const weakened = gradeResponse({
        page: observed({
          ...callback,
          headers: {
            ...callback.headers,
            'set-cookie': setCookies.map((value) => value.replace(/; HttpOnly/i, '')),
          },
        }),
        isHttps: true,
        redirection: 'to-https',
      });
      expect(weakened.results.cookies).toBe('cookies-session-without-httponly-flag');
    } finally {
      await signingIn.close();
      await issuer.close();
    }
  });

  it('serves the built index.html with no inline script and only same-origin scripts', (context) => {
    if (!hasWebBuild(context)) return;
    const html = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', content = ''] of scripts) {
      expect(content.trim(), 'inline script').toBe('');
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1] ?? '';
      expect(src, 'script source').toMatch(/^\/(?!\/)/);
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });
});

describe('Content-Security-Policy per mode', () => {
  const base = {
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/sticky-csp',
    SESSION_SECRET: 'x'.repeat(40),
  };
  const sources = (env: Record<string, string>) => {
    const policy = buildContentSecurityPolicy(loadConfig({ ...base, ...env }));
    return new Set(
      Object.values(policy)
        .flatMap((value) => value ?? [])
        .filter((source) => !source.startsWith("'")),
    );
  };

  it('allows nothing off-site in local mode', () => {
    expect([...sources({})].sort()).toEqual(['blob:', 'data:']);
  });

  it("adds only GIPHY's hosts in GIPHY mode", () => {
    expect([...sources({ GIPHY_API_KEY: 'public-key' })].sort()).toEqual([
      'blob:',
      'data:',
      'https://*.giphy.com',
      'https://api.giphy.com',
    ]);
    const policy = buildContentSecurityPolicy(loadConfig({ ...base, GIPHY_API_KEY: 'k' }));
    expect(policy.scriptSrc).toEqual(["'self'"]);
    expect(policy.frameAncestors).toEqual(["'none'"]);
  });

  it('adds only the fake GIPHY origin when GIPHY_API_URL points at one', () => {
    expect(
      [...sources({ GIPHY_API_KEY: 'k', GIPHY_API_URL: 'http://127.0.0.1:4567/v1' })].sort(),
    ).toEqual(['blob:', 'data:', 'http://127.0.0.1:4567']);
  });

  it('adds the analytics origin to scripts and connections only', () => {
    const policy = buildContentSecurityPolicy(
      loadConfig({ ...base, ANALYTICS_SCRIPT_URL: 'https://stats.example/script.js' }),
    );
    expect(policy.scriptSrc).toEqual(["'self'", 'https://stats.example']);
    expect(policy.connectSrc).toContain('https://stats.example');
    expect(policy.imgSrc).not.toContain('https://stats.example');
  });
});
