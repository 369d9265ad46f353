import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems, insertCategory } from '../test-support/catalog-fixtures.ts';
import { listWriteRoutes, routeName } from '../test-support/envelopes.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { buildMultipart, makeAnimation } from '../test-support/uploads.ts';

const ORIGIN = 'https://sticky.example';

/** What a browser sends with a write from each kind of page. */
const crossSiteVariants: Array<[label: string, headers: Record<string, string>]> = [
  [
    'another site (Fetch Metadata)',
    { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
  ],
  ['a sibling subdomain', { 'sec-fetch-site': 'same-site', origin: 'https://evil.sticky.example' }],
  ['an older browser without Fetch Metadata', { origin: 'https://evil.example' }],
  ['a sandboxed frame or data: URL', { origin: 'null' }],
  ['the same host over plain http', { origin: 'http://sticky.example' }],
  [
    'a form on another site',
    { 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
  ],
];

/** A valid request body per write route, so only the origin decides the outcome. */
function bodyFor(url: string, itemId: string): string | undefined {
  if (url === '/api/favorites/merge') return JSON.stringify({ ids: [itemId] });
  if (url === '/api/events') return JSON.stringify({ type: 'view', id: itemId });
  if (url === '/api/analytics/pageview') return JSON.stringify({ path: '/landing' });
  if (url === '/api/items/:id') return JSON.stringify({ title: 'Edited' });
  if (url === '/api/tokens') return JSON.stringify({ name: 'A script' });
  if (url === '/api/items/:id/reports') return JSON.stringify({ reason: 'spam' });
  if (url === '/api/admin/reports/:id') return JSON.stringify({ state: 'dismissed' });
  if (url === '/api/admin/upload-bans/:userId') return JSON.stringify({ reason: 'Spam' });
  if (url === '/api/admin/categories') return JSON.stringify({ name: 'Control' });
  if (url === '/api/admin/categories/:id') return JSON.stringify({ name: 'Renamed' });
  return undefined;
}

describe('cross-site writes are refused on every write route', () => {
  let testApp: TestApp;
  let itemId: string;

  beforeAll(async () => {
    testApp = await createTestApp(
      {
        PUBLIC_URL: ORIGIN,
        ADMIN_EMAILS: 'admin@sticky.example',
        // Admins off loopback need a real provider (config/env.ts); nothing here signs in
        // through it, so it need not answer.
        OIDC_ISSUER: 'http://127.0.0.1:9/oidc',
        OIDC_CLIENT_ID: 'sticky',
        OIDC_CLIENT_SECRET: 'not-used-by-these-tests-0123456789',
      },
      { hasJobs: true },
    );
    [itemId] = (await insertCatalogItems(testApp.database, [{ title: 'Dancing cat' }])) as [string];
  });
  afterAll(async () => {
    await testApp?.close();
  });

  // Every state-changing /api and /v1 route, from the routes themselves. (The local OpenID
  // issuer receives its own form posts under /oidc; oidc-provider guards those.)
  const writeRoutes = () => listWriteRoutes(testApp.app);

  it('knows the write routes it guards', () => {
    expect(writeRoutes().map(routeName)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/logout',
        'POST /api/favorites/merge',
        'PUT /api/favorites/:id',
        'DELETE /api/favorites/:id',
        'POST /api/events',
        'POST /api/analytics/pageview',
      ]),
    );
  });

  it('answers 403 with a clear message from every kind of foreign page, and changes nothing', async () => {
    for (const route of writeRoutes()) {
      const url = route.url.replace(/:[a-z]+/g, itemId);
      for (const [label, headers] of crossSiteVariants) {
        const signedIn = await signInAs(testApp);
        const payload = bodyFor(route.url, itemId);
        const response = await testApp.app.inject({
          method: route.method as 'POST',
          url,
          headers: {
            cookie: signedIn.cookie,
            ...(payload ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          payload,
        });
        const what = `${route.method} ${route.url} from ${label}`;
        expect(response.statusCode, what).toBe(403);
        expect(response.json(), what).toEqual({
          success: false,
          error: { code: 'forbidden', message: 'Cross-site requests are not allowed.' },
        });
        // Nothing happened: still signed in, no favourite, no merge recorded.
        const me = await testApp.app.inject({
          url: '/api/auth/me',
          headers: { cookie: signedIn.cookie },
        });
        expect(me.statusCode, `${what}: session survives`).toBe(200);
        const favorites = await testApp.app.inject({
          url: '/api/favorites',
          headers: { cookie: signedIn.cookie },
        });
        expect(favorites.json().ids, `${what}: no favourite`).toEqual([]);
      }
    }
  });

  /** The row a moderation route acts on (docs/security.md, "Moderation"), made with SQL. */
  async function prepareModerationTarget(method: string, url: string) {
    const { pool } = testApp.database;
    if (url === '/api/admin/reports/:id') {
      const reporter = await signInAs(testApp);
      const id = randomUUID();
      await pool.query(
        `INSERT INTO item_reports (id, item_id, reporter_id, reason) VALUES ($1, $2, $3, 'spam')`,
        [id, itemId, reporter.user.id],
      );
      return id;
    }
    if (url === '/api/admin/upload-bans/:userId') {
      const person = await signInAs(testApp);
      if (method === 'DELETE') {
        await pool.query(`INSERT INTO upload_bans (user_id, reason) VALUES ($1, 'Spam')`, [
          person.user.id,
        ]);
      }
      return person.user.id;
    }
    if (url === '/api/admin/categories/:id') {
      return String((await insertCategory(testApp.database, { name: randomUUID() })).id);
    }
    if (url === '/api/admin/blocked-hashes/:hash') {
      const hash = randomBytes(32).toString('hex');
      await pool.query(`INSERT INTO blocked_hashes (sha256) VALUES ($1)`, [hash]);
      return hash;
    }
    return undefined;
  }

  it('lets the same writes through from our own pages (the control)', async () => {
    const admin = { email: 'admin@sticky.example' };
    for (const route of writeRoutes()) {
      const signedIn = await signInAs(testApp, admin);
      const auth = {
        cookie: signedIn.cookie,
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
      };
      // A request each route takes: a fresh item to edit or delete, a token of this person's.
      const [freshItem] = (await insertCatalogItems(testApp.database, [{ title: 'Fresh' }])) as [
        string,
      ];
      let id = freshItem;
      if (route.url === '/api/tokens/:id') {
        const made = await testApp.app.inject({
          method: 'POST',
          url: '/api/tokens',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify({ name: 'control' }),
        });
        id = made.json().token.id;
      }
      id = (await prepareModerationTarget(route.method, route.url)) ?? id;
      let payload: string | Buffer | undefined =
        route.method === 'DELETE' ? undefined : bodyFor(route.url, itemId);
      let contentType = payload ? 'application/json' : undefined;
      if (route.url === '/api/uploads') {
        const form = buildMultipart([
          { name: 'a.gif', bytes: await makeAnimation({ format: 'gif' }) },
        ]);
        payload = form.body;
        contentType = form.contentType;
      }
      const response = await testApp.app.inject({
        method: route.method as 'POST',
        url: route.url.replace(/:[A-Za-z]+/g, id),
        headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBeLessThan(
        300,
      );
    }
  });

  it('never lets another origin read signed-in answers (no credentialed CORS)', async () => {
    const { cookie } = await signInAs(testApp);
    for (const url of ['/api/auth/me', '/api/favorites', '/v1/gifs/trending']) {
      const preflight = await testApp.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers['access-control-allow-origin'], url).toBeUndefined();
      const read = await testApp.app.inject({
        url,
        headers: { origin: 'https://evil.example', cookie },
      });
      expect(read.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(read.headers['access-control-allow-credentials'], url).toBeUndefined();
    }
  });
});
