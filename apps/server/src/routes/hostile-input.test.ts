import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteEntry } from '../plugins/route-inventory.ts';
import type { TestApp } from '../test-support/app.ts';
import { readRouteInventory } from '../test-support/app.ts';
import { insertCatalogItems, insertCategory } from '../test-support/catalog-fixtures.ts';
import { readFuzzSettings } from '../test-support/fuzz.ts';
import { assertEnvelope, listApiRoutes, routeName } from '../test-support/envelopes.ts';
import type { SeenResponse } from '../test-support/envelopes.ts';
import { startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';
import { signInAs } from '../test-support/sign-in.ts';

/**
 * Property-based hostile input over every `/v1` and `/api` route the app serves (read from
 * the routes themselves): query strings, path parameters, JSON bodies, content types and
 * authentication states drawn at random. Whatever comes in, the answer is never a 5xx and
 * always a status and body the route declares. `STICKY_FUZZ_RUNS` sets the runs per route
 * (more under CI; `npm run stress` runs many more); the seed is fixed, or `STICKY_FUZZ_SEED`,
 * and printed with the runs, so a red run can be repeated.
 */
const { runs: numRuns, seed } = readFuzzSettings('hostile-input');
// Drawing text on a loaded 2-core machine takes seconds a phrase (docs/testing.md, "Fuzzing").
const costlyTimeoutMs = 120_000;
const API_KEY = 'fuzz-api-key-0123456789abcdefghijklm';
const ENV = { STICKY_API_KEYS: API_KEY };

interface RouteSpec {
  route: RouteEntry;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Pattern as the router knows it (`:name` for path parameters). */
  pattern: string;
  /** Parameter names the route declares; random others are mixed in. */
  query: string[];
  /** Fields of the JSON body the route declares; hostile values are put in them. */
  bodyFields: string[] | undefined;
  /** The route ends the session it is called with: give it a throwaway one. */
  endsSession: boolean;
  /** Each call may cost real CPU (rendering): fewer runs. */
  isCostly: boolean;
}

/** Routes whose calls need care, by what they do rather than what they take. */
const sessionEnders = new Set(['POST /api/auth/logout']);
const costly = new Set(['GET /v1/text/animate']);

function shapeKeys(schema: unknown): string[] | undefined {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined;
}

// The routes are known before the tests are made: one per route.
const inventory = await readRouteInventory(ENV);
const routes = listApiRoutes({ routeInventory: inventory }).map(toSpec);

function toSpec(route: RouteEntry): RouteSpec {
  return {
    route,
    method: route.method as RouteSpec['method'],
    pattern: route.url,
    query: shapeKeys(route.schema?.querystring) ?? [],
    bodyFields: shapeKeys(route.schema?.body),
    endsSession: sessionEnders.has(routeName(route)),
    isCostly: costly.has(routeName(route)),
  };
}

const specials = [
  '',
  ' ',
  '-1',
  '0',
  '1',
  '25',
  '50',
  '51',
  '4999',
  '5000',
  '1e3',
  '99999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  'undefined',
  'null',
  'true',
  '[]',
  '{}',
  'g',
  'pg-13',
  'r',
  'y',
  'en',
  'zh-hans',
  'relevant',
  'recent',
  'view',
  '/landing',
  "' OR 1=1 --",
  "'); DROP TABLE items; --",
  '\\',
  '\u0000',
  '%00',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}',
  '__proto__',
  'a'.repeat(51),
  'a'.repeat(5000),
  '😀'.repeat(60),
  'e\u0301'.repeat(30),
  '\ud800',
  'https://evil.example/',
  '//evil.example',
  '/\\evil.example',
];

describe('hostile input on every /v1 and /api route', () => {
  let testApp: ListeningTestApp;
  // PUBLIC_URL: the app listens there, so sign-in can discover its local issuer.
  let ORIGIN = '';
  let itemIds: string[] = [];
  let categoryNames: string[] = [];
  let cookies: string[] = [];

  beforeAll(async () => {
    testApp = await startListeningApp(ENV);
    ORIGIN = testApp.baseUrl;
    itemIds = await insertCatalogItems(testApp.database, [
      { title: 'Dancing cat', tags: ['cat', 'dance'], trendScore: 5 },
      { title: 'Happy dog', tags: ['dog', 'happy'], trendScore: 3, rating: 'pg-13' },
      { type: 'sticker', title: 'Cat sticker', tags: ['cat'], trendScore: 2 },
      { type: 'text', title: 'Hello there', tags: ['hello'] },
      { title: 'Spicy', tags: ['cat'], rating: 'r' },
    ]);
    const animals = await insertCategory(testApp.database, {
      name: 'Animals',
      featuredItemId: itemIds[0],
      itemIds: itemIds.slice(0, 2),
    });
    const cats = await insertCategory(testApp.database, {
      name: 'Cats',
      parentId: animals.id,
      itemIds: [itemIds[0]!],
    });
    categoryNames = [animals.nameEncoded, cats.nameEncoded];
    // Many accounts, so per-account rate limits leave most requests to reach the handlers.
    cookies = await Promise.all(
      Array.from({ length: 16 }, () => signInAs(testApp).then((signed) => signed.cookie)),
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const hostileText = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...specials) },
      { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
      { weight: 1, arbitrary: fc.integer({ min: -100, max: 100_000 }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom(...itemIds, ...categoryNames, 'cat', 'dog') },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.constantFrom(...itemIds, 'x', '', ' ', '!!', 'a'.repeat(65)), {
            maxLength: 120,
          })
          .map((parts) => parts.join(',')),
      },
    );

  /** A value as it travels in a URL: usually encoded, sometimes with broken escapes. */
  const urlValue = () =>
    fc.oneof(
      { weight: 6, arbitrary: hostileText().map((text) => encodeURIComponent(safeUtf16(text))) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AE', '%2F', '%252F', '%FF', '+'),
      },
    );

  const queryString = (names: string[]) =>
    fc
      .array(
        fc.tuple(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...names, 'api_key', 'pingback_id', 'type') },
            {
              weight: 1,
              arbitrary: fc.constantFrom('__proto__', 'constructor', 'q[]', 'limit[0]', 'a.b'),
            },
            { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
          ),
          urlValue(),
        ),
        { maxLength: 7 },
      )
      .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));

  const pathSegment = () =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...itemIds, ...categoryNames) },
      { weight: 4, arbitrary: urlValue() },
      { weight: 1, arbitrary: fc.constantFrom('..', '%2e%2e', '.', '%2F..%2F', 'a'.repeat(201)) },
    );

  const authState = fc.constantFrom('user', 'user', 'user', 'none', 'apiKey', 'badCookie');

  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'a/b/c',
    undefined,
  );

  const body = (fields: string[] | undefined) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.array(fc.constantFrom(...(fields ?? ['x'])), { maxLength: 3 }),
            fc.array(
              fc.oneof(
                hostileText(),
                fc.array(hostileText(), { maxLength: 20 }),
                fc.constantFrom(...itemIds),
                fc.array(fc.constantFrom(...itemIds), { maxLength: 5 }),
                fc.jsonValue({ maxDepth: 3 }),
              ),
              { minLength: 3, maxLength: 3 },
            ),
          )
          .map(([names, values]) =>
            JSON.stringify(Object.fromEntries(names.map((name, i) => [name, values[i]]))),
          ),
      },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '{',
          '{"ids":',
          'null',
          '"\\ud800"',
          '{"__proto__":{"isAdmin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '['.repeat(5000) + ']'.repeat(5000),
          `{"ids":[${Array.from({ length: 3000 }, (_, i) => `"id${i}"`).join(',')}]}`,
          'x'.repeat(70 * 1024),
        ),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );

  function buildRequest(
    spec: RouteSpec,
    parts: {
      segments: string[];
      query: string;
      auth: string;
      userIndex: number;
      contentType: string | undefined;
      body: string | undefined;
      asHead: boolean;
    },
  ): InjectOptions & { url: string } {
    let segmentIndex = 0;
    const path = spec.pattern.replace(/:[a-z]+/g, () => parts.segments[segmentIndex++] ?? 'x');
    const headers: Record<string, string> = {};
    let query = parts.query;
    if (parts.auth === 'user') headers.cookie = cookies[parts.userIndex % cookies.length]!;
    if (parts.auth === 'badCookie') headers.cookie = 'sticky_session=not-a-real-session-token';
    if (parts.auth === 'apiKey') query = `${query}&api_key=${API_KEY}`;
    const isWrite = spec.method !== 'GET';
    if (isWrite) {
      headers.origin = ORIGIN;
      headers['sec-fetch-site'] = 'same-origin';
      if (parts.contentType && parts.body !== undefined) {
        headers['content-type'] = parts.contentType;
      }
    }
    return {
      method: parts.asHead && !isWrite ? 'HEAD' : spec.method,
      url: query ? `${path}?${query}` : path,
      headers,
      // Different addresses, so per-address rate limits do not hide the handlers.
      remoteAddress: `10.${parts.userIndex % 250}.${Math.floor(parts.userIndex / 250) % 250}.7`,
      ...(isWrite && parts.body !== undefined ? { payload: parts.body } : {}),
    };
  }

  /** The route the router picks for a URL: the most specific pattern, fewer parameters first. */
  function routeFor(method: string, url: string): RouteEntry | undefined {
    const path = url.split('?')[0]!;
    const asked = method === 'HEAD' ? 'GET' : method;
    return inventory
      .filter((candidate) => candidate.method === asked && matches(candidate.url, path))
      .sort((a, b) => paramCountOf(a.url) - paramCountOf(b.url))[0];
  }

  /** Judges one answer; routes hidden from the API document (its own pages) are not API. */
  function judge(url: string, route: RouteEntry | undefined, seen: SeenResponse, method: string) {
    if (route?.schema?.hide) return;
    assertEnvelope(url, route, seen, { publicOrigin: ORIGIN, method });
  }

  function toSeen(response: Awaited<ReturnType<TestApp['app']['inject']>>): SeenResponse {
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  it('fuzzes every /v1 and /api route the app serves', () => {
    const served = listApiRoutes(testApp.app).map(routeName);
    expect(routes.map((spec) => routeName(spec.route)).sort()).toEqual(served.sort());
    // The known ones among them, so an inventory that lost routes cannot pass empty.
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /v1/gifs/search',
        'GET /v1/gifs/:id',
        'GET /api/auth/me',
        'PUT /api/favorites/:id',
        'POST /api/events',
      ]),
    );
    expect([...sessionEnders, ...costly].filter((name) => !served.includes(name))).toEqual([]);
  });

  for (const spec of routes) {
    it(
      `${routeName(spec.route)}: never a 5xx, always a declared answer`,
      async () => {
        const paramCount = paramCountOf(spec.pattern);
        const arbitrary = fc.record({
          segments: fc.array(pathSegment(), { minLength: paramCount, maxLength: paramCount }),
          query: queryString(spec.query.length > 0 ? spec.query : ['q', 'limit']),
          auth: authState,
          userIndex: fc.nat({ max: 100_000 }),
          contentType,
          body: body(spec.bodyFields),
          asHead: fc.boolean(),
        });
        await fc.assert(
          fc.asyncProperty(arbitrary, async (parts) => {
            const request = buildRequest(spec, parts);
            if (spec.endsSession && parts.auth === 'user') {
              request.headers = { ...request.headers, cookie: (await signInAs(testApp)).cookie };
            }
            const response = await testApp.app.inject(request);
            const seenUrl = asInjected(request.url);
            // Dot segments can turn the path into another route's: judge it as that one.
            const route = seenUrl === request.url ? spec.route : routeFor(spec.method, seenUrl);
            judge(seenUrl, route, toSeen(response), request.method ?? spec.method);
          }),
          // A costly route draws new text on most runs (seven styles, each encoded to video):
          // a few runs judge its validation; more would only measure the encoder.
          { numRuns: spec.isCostly ? Math.min(6, numRuns) : numRuns, seed, endOnFailure: true },
        );
      },
      costlyTimeoutMs,
    );
  }

  it('a NUL byte or a lone surrogate in every parameter: never a 5xx (PostgreSQL refuses NUL)', async () => {
    for (const spec of routes.filter((candidate) => !candidate.isCostly)) {
      for (const bad of ['%00', 'cat%00dog', '%ED%A0%80', '%C0%80']) {
        const names = spec.query;
        const targets = [
          ...names.map((name) => ({ segments: ['x'], query: `${name}=${bad}` })),
          { segments: [bad, bad], query: '' },
        ];
        for (const target of targets) {
          const request = buildRequest(spec, {
            ...target,
            auth: 'user',
            userIndex: 1,
            contentType: 'application/json',
            body: JSON.stringify(
              Object.fromEntries(
                (spec.bodyFields ?? []).map((field) => [field, decodeURIComponent('%00')]),
              ),
            ),
            asHead: false,
          });
          const response = await testApp.app.inject(request);
          judge(request.url, routeFor(spec.method, request.url), toSeen(response), spec.method);
        }
      }
    }
  });

  it('any method on any path under /v1 and /api: never a 5xx, always the envelope', async () => {
    const arbitrary = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      prefix: fc.constantFrom('/v1', '/v1/', '/api', '/api/', '/api/auth/', '/v1/gifs/'),
      segments: fc.array(pathSegment(), { maxLength: 4 }),
      query: queryString(['q', 'limit']),
      auth: authState,
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ method, prefix, segments, query, auth }) => {
        const path = `${prefix}${segments.join('/')}`.replace(/^\/(v1|api)\/\//, '/$1/');
        const url = query ? `${path}?${query}` : path;
        const headers: Record<string, string> = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
        if (auth === 'user') headers.cookie = cookies[0]!;
        const response = await testApp.app.inject({ method, url, headers });
        if (method === 'OPTIONS' && response.statusCode === 204) return;
        const seenUrl = asInjected(url);
        judge(seenUrl, routeFor(method, seenUrl), toSeen(response), method);
      }),
      { numRuns: numRuns * 4, seed, endOnFailure: true },
    );
  });
});

/** Lone surrogates cannot be percent-encoded; swap them for U+FFFD as a browser would. */
function safeUtf16(text: string): string {
  return text.replace(/\p{Surrogate}/gu, '\ufffd');
}

/**
 * The URL as the app receives it from `inject`, which resolves dot segments (`%2e%2e` too)
 * the way a browser would. Raw dot segments over a socket are tested in media-paths.test.ts.
 */
function asInjected(url: string): string {
  const [path = '', query] = url.split(/\?(.*)/s);
  if (!/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return url;
  const resolved = new URL(path, 'http://localhost').pathname;
  return query === undefined ? resolved : `${resolved}?${query}`;
}

function paramCountOf(pattern: string): number {
  return (pattern.match(/:[a-z]+/g) ?? []).length;
}

function matches(pattern: string, path: string): boolean {
  const expression = new RegExp(`^${pattern.replace(/\*/g, '.*').replace(/:[a-z]+/g, '[^/]+')}/?$`);
  return expression.test(path);
}
