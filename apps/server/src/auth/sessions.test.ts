import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  createSession,
  deleteSession,
  findSessionUser,
  hashToken,
  purgeExpiredSessions,
  upsertUser,
} from './sessions.ts';

describe('sessions', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('stores only the hash of the token and finds the user by the token', async () => {
    const user = await upsertUser(testApp.database.db, testApp.config, {
      issuer: 'https://issuer.example',
      subject: 'sub-1',
      email: 'ann@example.com',
      name: 'Ann',
      picture: null,
    });
    const token = await createSession(testApp.database.db, user.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await testApp.database.db.select().from(sessions);
    expect(rows.map((row) => row.tokenHash)).toContain(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).toEqual(user);
    await deleteSession(testApp.database.db, token);
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).toBeNull();
  });

  it('does not accept an expired session', async () => {
    const { cookie } = await signInAs(testApp);
    const token = cookie.split('=')[1]!;
    await testApp.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).toBeNull();
  });

  it('updates the profile of a returning user instead of duplicating them', async () => {
    const claims = { issuer: 'i', subject: 's', email: 'a@x.io', name: 'A', picture: null };
    const first = await upsertUser(testApp.database.db, testApp.config, claims);
    const second = await upsertUser(testApp.database.db, testApp.config, {
      ...claims,
      name: 'Ann B',
    });
    expect(second.id).toBe(first.id);
    expect(second.name).toBe('Ann B');
  });
});

describe('an expired session over HTTP', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('is answered 401 by /api and /v1, and its row is purged', async () => {
    const { cookie } = await signInAs(testApp);
    const token = cookie.split('=')[1]!;
    const me = () => testApp.app.inject({ url: '/api/auth/me', headers: { cookie } });
    const trending = () => testApp.app.inject({ url: '/v1/gifs/trending', headers: { cookie } });
    // The control: the same requests while the session lasts.
    expect((await me()).statusCode).toBe(200);
    expect((await trending()).statusCode).toBe(200);

    await testApp.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));

    const expiredMe = await me();
    expect(expiredMe.statusCode).toBe(401);
    expect(expiredMe.json()).toEqual({ success: false, user: null });
    const expiredV1 = await trending();
    expect(expiredV1.statusCode).toBe(401);
    expect(expiredV1.json().meta).toMatchObject({
      status: 401,
      msg: 'Sign in, or pass an api_key this server knows.',
    });
    const favorites = await testApp.app.inject({ url: '/api/favorites', headers: { cookie } });
    expect(favorites.statusCode).toBe(401);

    expect(await purgeExpiredSessions(testApp.database.db)).toBeGreaterThanOrEqual(1);
    const rows = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(rows).toEqual([]);
  });
});

describe('cross-site writes', () => {
  const origin = 'http://localhost:3000';
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ PUBLIC_URL: origin });
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A real write: merging this browser's favorites into the account, once. */
  const merge = (cookie: string, headers: Record<string, string>) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/favorites/merge',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      payload: { ids: ['abc123'] },
    });
  const favoritesOf = async (cookie: string) =>
    (await testApp.app.inject({ url: '/api/favorites', headers: { cookie } })).json().ids;

  it('refuses a write from another site, by Sec-Fetch-Site or by Origin, and changes nothing', async () => {
    const { cookie } = await signInAs(testApp);
    const bySite = await merge(cookie, { 'sec-fetch-site': 'cross-site' });
    expect(bySite.statusCode).toBe(403);
    expect(bySite.json().error.message).toBe('Cross-site requests are not allowed.');
    const byOrigin = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/favorites/abc123',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(byOrigin.statusCode).toBe(403);
    expect(await favoritesOf(cookie)).toEqual([]);
  });

  it('lets same-origin writes through to the route', async () => {
    const { cookie } = await signInAs(testApp);
    const response = await merge(cookie, { origin, 'sec-fetch-site': 'same-origin' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, merged: true, ids: ['abc123'] });
    expect(await favoritesOf(cookie)).toEqual(['abc123']);
  });

  it('ends a session at its absolute lifetime, however recently it was used', async () => {
    const { cookie } = await signInAs(testApp);
    const token = cookie.split('=')[1]!;
    const maxAgeDays = testApp.config.sessionMaxAgeMs / 86_400_000;
    expect(maxAgeDays).toBe(90);
    const setAge = (days: number) =>
      testApp.database.db
        .update(sessions)
        .set({ createdAt: new Date(Date.now() - days * 86_400_000), lastSeenAt: new Date() })
        .where(eq(sessions.tokenHash, hashToken(token)));
    await setAge(maxAgeDays - 1);
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).not.toBeNull();
    await setAge(maxAgeDays + 1);
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).toBeNull();
    const left = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(left).toEqual([]);
  });

  it('ends the session of an email taken off the allow-list on its next use', async () => {
    const { cookie } = await signInAs(testApp, { email: 'leaver@example.com' });
    const token = cookie.split('=')[1]!;
    const stillListed = { ...testApp.config, allowedEmails: ['leaver@example.com'] };
    expect(await findSessionUser(testApp.database.db, stillListed, token)).not.toBeNull();
    const delisted = { ...testApp.config, allowedEmails: ['someone-else@example.com'] };
    expect(await findSessionUser(testApp.database.db, delisted, token)).toBeNull();
    expect(await findSessionUser(testApp.database.db, testApp.config, token)).toBeNull();
  });

  it('signs out everywhere: every session of the person ends, and only theirs', async () => {
    const first = await signInAs(testApp, { email: 'everywhere@example.com' });
    // A second device of the same person.
    const secondToken = await createSession(testApp.database.db, first.user.id);
    const second = { cookie: `${first.cookie.split('=')[0]}=${secondToken}` };
    const other = await signInAs(testApp);
    const me = (cookie: string) => testApp.app.inject({ url: '/api/auth/me', headers: { cookie } });
    const crossSite = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: {
        cookie: first.cookie,
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await me(second.cookie)).statusCode).toBe(200);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: { cookie: first.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(String(response.headers['set-cookie'])).toMatch(/sticky_session=;/);
    expect((await me(first.cookie)).statusCode).toBe(401);
    expect((await me(second.cookie)).statusCode).toBe(401);
    expect((await me(other.cookie)).statusCode).toBe(200);
    const signedOut = await testApp.app.inject({ method: 'POST', url: '/api/auth/logout-all' });
    expect(signedOut.statusCode).toBe(401);
  });
});
