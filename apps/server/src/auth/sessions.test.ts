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
    const user = await upsertUser(testApp.database.db, {
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
    expect(await findSessionUser(testApp.database.db, token)).toEqual(user);
    await deleteSession(testApp.database.db, token);
    expect(await findSessionUser(testApp.database.db, token)).toBeNull();
  });

  it('does not accept an expired session', async () => {
    const { cookie } = await signInAs(testApp);
    const token = cookie.split('=')[1]!;
    await testApp.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(await findSessionUser(testApp.database.db, token)).toBeNull();
  });

  it('updates the profile of a returning user instead of duplicating them', async () => {
    const claims = { issuer: 'i', subject: 's', email: 'a@x.io', name: 'A', picture: null };
    const first = await upsertUser(testApp.database.db, claims);
    const second = await upsertUser(testApp.database.db, { ...claims, name: 'Ann B' });
    expect(second.id).toBe(first.id);
    expect(second.name).toBe('Ann B');
  });
});

describe('cross-site writes', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('refuses a POST from another site, by Sec-Fetch-Site or by Origin', async () => {
    const bySite = await testApp.app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(bySite.statusCode).toBe(403);
    expect(bySite.json().error.message).toBe('Cross-site requests are not allowed.');
    const byOrigin = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/anything',
      headers: { origin: 'https://evil.example' },
    });
    expect(byOrigin.statusCode).toBe(403);
  });

  it('lets same-origin writes through to the route', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(404);
  });
});
