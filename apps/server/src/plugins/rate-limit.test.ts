import { errorEnvelopeSchema } from '@sticky/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';

const ORIGIN = 'https://sticky.example';
const MESSAGE = 'Too many requests, please slow down and try again.';

/**
 * Sends the request as often as its route's budget allows, each let through, then once more;
 * returns that last answer. The budget is the number the route declares (`config.rateLimit.max`,
 * from the routes themselves), never what the server advertises: a server that counts or
 * advertises wrongly fails here, and a retuned budget keeps the test true.
 */
async function exhaust(testApp: TestApp, route: string, request: () => InjectOptions) {
  const [method, pattern] = route.split(' ');
  const declared = testApp.app.routeInventory.find(
    (entry) => entry.method === method && entry.url === pattern,
  )?.rateLimitMax;
  expect(declared, `${route} declares its budget`).toBeGreaterThan(0);
  const limit = declared!;
  for (let sent = 1; sent <= limit; sent += 1) {
    const response = await testApp.app.inject(request());
    expect(response.statusCode, `${route}: request ${sent} of ${limit}`).not.toBe(429);
    if (sent === 1) expect(Number(response.headers['x-ratelimit-limit'])).toBe(limit);
  }
  return { limit, last: await testApp.app.inject(request()) };
}

describe('rate limits answer 429 in the envelope of their path', () => {
  let testApp: TestApp;
  let itemId: string;

  beforeAll(async () => {
    // An hour's window, so no budget can renew in the middle of a burst (the routes' own
    // budgets per window are what is tested; the window is the same option for all).
    testApp = await createTestApp({ PUBLIC_URL: ORIGIN }, { rateLimitWindowMs: 60 * 60_000 });
    [itemId] = (await insertCatalogItems(testApp.database, [{ title: 'Dancing cat' }])) as [string];
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('under /v1: HTTP 429 with meta.status 429, meta.msg and Retry-After', async () => {
    const { cookie } = await signInAs(testApp);
    // A page past the last style: limited like any render, but draws nothing.
    const { last } = await exhaust(testApp, 'GET /v1/text/animate', () => ({
      url: '/v1/text/animate?m=hello&offset=4000',
      headers: { cookie },
    }));
    expect(last.statusCode).toBe(429);
    const body = errorEnvelopeSchema.parse(last.json());
    expect(body.meta).toMatchObject({ status: 429, msg: MESSAGE });
    expect(body.meta.response_id).not.toBe('');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);

    // Per account: someone else is not held back by it.
    const other = await signInAs(testApp);
    const fresh = await testApp.app.inject({
      url: '/v1/text/animate?m=hello&offset=4000',
      headers: { cookie: other.cookie },
    });
    expect(fresh.statusCode).toBe(200);
  });

  const apiCases: Array<[name: string, build: (cookie: string) => InjectOptions]> = [
    ['GET /api/auth/me', (cookie) => ({ url: '/api/auth/me', headers: { cookie } })],
    [
      'PUT /api/favorites/:id',
      (cookie) => ({
        method: 'PUT',
        url: `/api/favorites/${itemId}`,
        headers: { cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
      }),
    ],
    [
      'POST /api/favorites/merge',
      (cookie) => ({
        method: 'POST',
        url: '/api/favorites/merge',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
        payload: { ids: [] },
      }),
    ],
    [
      'POST /api/events',
      (cookie) => ({
        method: 'POST',
        url: '/api/events',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
        payload: { type: 'view', id: itemId },
      }),
    ],
    [
      'POST /api/analytics/pageview',
      () => ({
        method: 'POST',
        url: '/api/analytics/pageview',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        payload: { path: '/landing' },
        remoteAddress: '203.0.113.9',
      }),
    ],
    [
      'POST /api/auth/logout',
      () => ({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { origin: ORIGIN },
        remoteAddress: '203.0.113.10',
      }),
    ],
  ];

  for (const [name, build] of apiCases) {
    it(`${name}: HTTP 429 with {success:false,error:{code:'rate_limited',message}}`, async () => {
      const { cookie } = await signInAs(testApp);
      const { last } = await exhaust(testApp, name, () => build(cookie));
      expect(last.statusCode).toBe(429);
      expect(last.json()).toEqual({
        success: false,
        error: { code: 'rate_limited', message: MESSAGE },
      });
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    });
  }

  it('keeps the signed-in /me budget per account, not per shared address', async () => {
    const first = await signInAs(testApp);
    const { last } = await exhaust(testApp, 'GET /api/auth/me', () => ({
      url: '/api/auth/me',
      headers: { cookie: first.cookie },
      remoteAddress: '198.51.100.1',
    }));
    expect(last.statusCode).toBe(429);
    const colleague = await signInAs(testApp);
    const response = await testApp.app.inject({
      url: '/api/auth/me',
      headers: { cookie: colleague.cookie },
      remoteAddress: '198.51.100.1',
    });
    expect(response.statusCode).toBe(200);
  });

  it('sends a browser that hammers sign-in back to the landing page, never a JSON 429', async () => {
    let last;
    for (let i = 0; i < 200; i += 1) {
      last = await testApp.app.inject({ url: '/api/auth/googleAuth', remoteAddress: '192.0.2.50' });
      if (String(last.headers.location).includes('rate_limited')) break;
    }
    expect(last!.statusCode).toBe(302);
    expect(last!.headers.location).toBe('/landing?error=rate_limited');
  });
});

describe('who a request counts against', () => {
  const keys = ['rate-key-one-0123456789abcdefghijklm', 'rate-key-two-0123456789abcdefghijklm'];
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(
      { PUBLIC_URL: ORIGIN, STICKY_API_KEYS: keys.join(',') },
      { rateLimitWindowMs: 60 * 60_000 },
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  // A page past the last style: limited like any render, but draws nothing.
  const animate = (query: string, remoteAddress: string) => ({
    url: `/v1/text/animate?m=hello&offset=4000&${query}`,
    remoteAddress,
  });

  it('an app counts by its api_key: another key from the same address has its own budget', async () => {
    const { last } = await exhaust(testApp, 'GET /v1/text/animate', () =>
      animate(`api_key=${keys[0]}`, '203.0.113.20'),
    );
    expect(last.statusCode).toBe(429);
    const other = await testApp.app.inject(animate(`api_key=${keys[1]}`, '203.0.113.20'));
    expect(other.statusCode).toBe(200);
  });

  it("an app's key counts per address in a route's own limit: one visitor cannot use up another's", async () => {
    const { last } = await exhaust(testApp, 'GET /v1/text/animate', () =>
      animate(`api_key=${keys[1]}`, '203.0.113.50'),
    );
    expect(last.statusCode).toBe(429);
    const visitor = await testApp.app.inject(animate(`api_key=${keys[1]}`, '203.0.113.51'));
    expect(visitor.statusCode).toBe(200);
  });

  it('a signed-in person counts by account, whatever key or address they come with', async () => {
    const { cookie } = await signInAs(testApp);
    const { last } = await exhaust(testApp, 'GET /v1/text/animate', () => ({
      ...animate('api_key=sticky-web', '203.0.113.30'),
      headers: { cookie },
    }));
    expect(last.statusCode).toBe(429);
    const elsewhere = await testApp.app.inject({
      ...animate('api_key=sticky-web', '203.0.113.31'),
      headers: { cookie },
    });
    expect(elsewhere.statusCode).toBe(429);
  });

  it('anyone else counts by address', async () => {
    const view = (remoteAddress: string) => ({
      method: 'POST' as const,
      url: '/api/analytics/pageview',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: { path: '/landing' },
      remoteAddress,
    });
    const { last } = await exhaust(testApp, 'POST /api/analytics/pageview', () =>
      view('203.0.113.40'),
    );
    expect(last.statusCode).toBe(429);
    expect((await testApp.app.inject(view('203.0.113.41'))).statusCode).toBe(204);
  });
});

describe('an IPv6 address counts by its /64', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Behind a proxy on loopback: the address is the one X-Forwarded-For names.
    testApp = await createTestApp(
      { PUBLIC_URL: ORIGIN, TRUST_PROXY: '127.0.0.1' },
      { rateLimitWindowMs: 60 * 60_000 },
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  let sent = 0;
  const view = (forwardedFor: string) => ({
    method: 'POST' as const,
    url: '/api/analytics/pageview',
    headers: {
      origin: ORIGIN,
      'content-type': 'application/json',
      'x-forwarded-for': forwardedFor,
    },
    payload: { path: '/landing' },
    remoteAddress: '127.0.0.1',
  });

  it('a new address in the same /64 per request does not get a new budget', async () => {
    // Each request from another of the /64's 2^64 addresses, as anyone holding one can send.
    const { last } = await exhaust(testApp, 'POST /api/analytics/pageview', () => {
      sent += 1;
      return view(`2001:db8:1:2:${sent.toString(16)}::${(sent * 7).toString(16)}`);
    });
    expect(last.statusCode).toBe(429);
    // The same /64 written out in full is still the same budget.
    expect((await testApp.app.inject(view('2001:0db8:0001:0002:ffff:0:0:1'))).statusCode).toBe(429);
    // The next /64 is someone else's.
    expect((await testApp.app.inject(view('2001:db8:1:3::1'))).statusCode).toBe(204);
  });
});
