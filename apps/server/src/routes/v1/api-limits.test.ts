import { errorEnvelopeSchema, tenorErrorSchema } from '@sticky/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { FAILED_KEYS_PER_WINDOW } from '../../plugins/rate-limit.ts';
import { createTestApp } from '../../test-support/app.ts';
import type { TestApp } from '../../test-support/app.ts';
import { signInAs } from '../../test-support/sign-in.ts';

const keyA = 'limits-key-a-0123456789abcdefghijklmnop';
const keyB = 'limits-key-b-0123456789abcdefghijklmnop';

/** Budgets of the APIs other apps call (docs/security.md, "Rate limits and quotas"). */
describe('/v1 and /v2 limits', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  const start = (env: Record<string, string> = {}) =>
    createTestApp(
      { STICKY_API_KEYS: `${keyA},${keyB}`, ...env },
      // An hour's window: no budget renews in the middle of a test on a slow machine.
      { rateLimitWindowMs: 60 * 60_000 },
    );
  const get = (
    app: TestApp,
    url: string,
    headers: Record<string, string> = {},
    ip = '198.51.100.1',
  ) => app.app.inject({ url, headers, remoteAddress: ip });

  it('gives each key, person and address its own budget on every route, /v1 and /v2 alike', async () => {
    testApp = await start({
      API_RATE_LIMIT_PER_MINUTE: '4',
      API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '3',
    });
    const app = testApp;
    const statuses = async (
      url: string,
      count: number,
      headers?: Record<string, string>,
      ip?: string,
    ) => {
      const seen: number[] = [];
      for (let index = 0; index < count; index += 1)
        seen.push((await get(app, url, headers, ip)).statusCode);
      return seen;
    };
    // The key's 4 a minute, from two addresses (3 at most from one), counted across both APIs.
    expect(await statuses(`/v1/gifs/trending?api_key=${keyA}`, 2)).toEqual([200, 200]);
    expect(await statuses(`/v2/featured?key=${keyA}`, 1)).toEqual([200]);
    const other = '198.51.100.2';
    expect(await statuses(`/v2/featured?key=${keyA}`, 2, {}, other)).toEqual([200, 429]);
    const refused = await get(app, `/v1/gifs/search?q=cat&api_key=${keyA}`, {}, '198.51.100.3');
    expect(refused.statusCode).toBe(429);
    expect(errorEnvelopeSchema.parse(refused.json()).meta.msg).toBe(
      'Too many requests: at most 4 a minute. Try again in a minute.',
    );
    // Another key, and a signed-in person, each still have theirs.
    expect(await statuses(`/v1/gifs/trending?api_key=${keyB}`, 1)).toEqual([200]);
    const { cookie } = await signInAs(app);
    expect(await statuses('/v1/gifs/trending', 4, { cookie })).toEqual([200, 200, 200, 200]);
    expect(await statuses('/v1/gifs/trending', 1, { cookie })).toEqual([429]);
  });

  it('stops one address flooding with a shared key before it drains the key for the others', async () => {
    // A key shipped in a web page: every visitor sends it, each from their own address.
    testApp = await start({
      API_RATE_LIMIT_PER_MINUTE: '20',
      API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '5',
    });
    const app = testApp;
    const flooder = '203.0.113.66';
    const visitor = '203.0.113.67';
    const floodStatuses: number[] = [];
    for (let index = 0; index < 30; index += 1) {
      const path =
        index % 2 === 0 ? `/v1/gifs/trending?api_key=${keyA}` : `/v2/featured?key=${keyA}`;
      floodStatuses.push((await get(app, path, {}, flooder)).statusCode);
    }
    expect(floodStatuses).toEqual([...Array(5).fill(200), ...Array(25).fill(429)]);
    // Refused in each API's own envelope, saying what to do.
    const v1 = await get(app, `/v1/gifs/search?q=cat&api_key=${keyA}`, {}, flooder);
    expect(v1.statusCode).toBe(429);
    expect(errorEnvelopeSchema.parse(v1.json()).meta).toMatchObject({
      status: 429,
      msg: 'Too many requests from this address: at most 5 a minute with this key. Try again in a minute.',
    });
    const v2 = await get(app, `/v2/featured?key=${keyA}`, {}, flooder);
    expect(v2.statusCode).toBe(429);
    expect(tenorErrorSchema.parse(v2.json()).error.code).toBe(429);
    // Everyone else on the key is still answered.
    expect((await get(app, `/v1/gifs/trending?api_key=${keyA}`, {}, visitor)).statusCode).toBe(200);
    expect((await get(app, `/v2/featured?key=${keyA}`, {}, visitor)).statusCode).toBe(200);
  });

  it('refuses an address that keeps sending wrong keys, without locking out the right ones', async () => {
    testApp = await start();
    const app = testApp;
    for (let index = 0; index < FAILED_KEYS_PER_WINDOW; index += 1) {
      const path =
        index % 2 === 0
          ? `/v1/gifs/trending?api_key=guess-${index}`
          : `/v2/featured?key=guess-${index}`;
      expect((await get(app, path)).statusCode, path).toBe(401);
    }
    const v1 = await get(app, '/v1/gifs/trending?api_key=one-more-guess');
    expect(v1.statusCode).toBe(429);
    expect(errorEnvelopeSchema.parse(v1.json()).meta.msg).toMatch(
      /without a valid key from this address/,
    );
    const v2 = await get(app, '/v2/featured?key=one-more-guess');
    expect(v2.statusCode).toBe(429);
    expect(tenorErrorSchema.parse(v2.json()).error.code).toBe(429);
    // The right key still works from there; other addresses may still be told 401.
    expect((await get(app, `/v1/gifs/trending?api_key=${keyA}`)).statusCode).toBe(200);
    expect((await get(app, '/v1/gifs/trending?api_key=x', {}, '198.51.100.2')).statusCode).toBe(
      401,
    );
  });
});
