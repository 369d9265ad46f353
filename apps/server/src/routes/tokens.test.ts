import type {
  CreateTokenRequest,
  CreateTokenResponse,
  ListTokensResponse,
} from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { sameSiteHeaders } from '../test-support/uploads.ts';

const dayMs = 24 * 60 * 60 * 1000;

/** docs/security.md, "API tokens": scopes, expiry, revoking them all, and what tokens never reach. */
describe('API tokens that can only do what they are for', () => {
  let testApp: TestApp;
  let itemId: string;

  beforeAll(async () => {
    testApp = await createTestApp({
      ADMIN_EMAILS: 'admin@example.com',
      OIDC_ADMIN_GROUPS: 'moderators',
      SESSION_MAX_AGE_DAYS: '30',
    });
    const ids = await insertCatalogItems(testApp.database, [
      { title: 'Scoped capybara', tags: ['scoped'] },
    ]);
    itemId = ids[0]!;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** A person signed in, as the web app's same-site requests carry their session. */
  async function signIn(email?: string) {
    const { user, cookie } = await signInAs(testApp, email ? { email } : {});
    return { user, browser: sameSiteHeaders(testApp, cookie) };
  }

  function makeToken(browser: Record<string, string>, body: Partial<CreateTokenRequest>) {
    return testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...browser, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'script', ...body }),
    });
  }

  async function madeToken(browser: Record<string, string>, body: Partial<CreateTokenRequest>) {
    const response = await makeToken(browser, body);
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json() as CreateTokenResponse;
    return { ...made, bearer: { authorization: `Bearer ${made.secret}` } };
  }

  const editTitle = (headers: Record<string, string>, title: string) =>
    testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${itemId}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ title }),
    });

  it('answers 403 naming the scope a call needs, and lets through what the token may do', async () => {
    const { user, browser } = await signIn();
    await testApp.database.pool.query('UPDATE items SET owner_id = $1 WHERE id = $2', [
      user.id,
      itemId,
    ]);
    const uploadOnly = await madeToken(browser, {});
    expect(uploadOnly.token.scopes).toEqual(['upload']);

    const refused = await editTitle(uploadOnly.bearer, 'Not by this token');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'insufficient_scope',
        message:
          'This API token lacks the "items" scope, which this call needs: make a token with it on /settings.',
      },
    });
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${itemId}`,
      headers: uploadOnly.bearer,
    });
    expect(deleted.json().error.code).toBe('insufficient_scope');
    // Its own uploads it may still follow.
    expect(
      (await testApp.app.inject({ url: '/api/uploads', headers: uploadOnly.bearer })).statusCode,
    ).toBe(200);

    const editor = await madeToken(browser, { scopes: ['items'] });
    const edited = await editTitle(editor.bearer, 'Edited by a token');
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().item.details.title).toBe('Edited by a token');

    // /v1 and /v2 are reads: `read` opens them, `upload` alone does not.
    const readItem = (bearer: Record<string, string>) =>
      testApp.app.inject({ url: `/v1/gifs/${itemId}`, headers: bearer });
    const uploadRead = await readItem(uploadOnly.bearer);
    expect(uploadRead.statusCode).toBe(403);
    expect(uploadRead.json().meta.msg).toMatch(/lacks the "read" scope/);
    const reader = await madeToken(browser, { scopes: ['read'] });
    const read = await readItem(reader.bearer);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.id).toBe(itemId);
    const tenor = await testApp.app.inject({ url: '/v2/featured', headers: reader.bearer });
    expect(tenor.statusCode).toBe(200);
    expect(
      (await testApp.app.inject({ url: '/v2/featured', headers: uploadOnly.bearer })).statusCode,
    ).toBe(403);
    // A reader does not write.
    expect((await editTitle(reader.bearer, 'Nope')).json().error.code).toBe('insufficient_scope');
  });

  it('never lets a token sign its owner out, nor see, make or revoke tokens', async () => {
    const { browser } = await signIn();
    const everything = await madeToken(browser, { scopes: ['upload', 'items', 'read'] });
    for (const [method, url] of [
      ['POST', '/api/auth/logout-all'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['DELETE', '/api/tokens'],
      ['DELETE', `/api/tokens/${everything.token.id}`],
    ] as const) {
      const response = await testApp.app.inject({
        method,
        url,
        headers: { ...everything.bearer, 'content-type': 'application/json' },
        payload: method === 'POST' ? JSON.stringify({ name: 'minted' }) : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.message).toBe(
        'API tokens cannot call this (sign-in, sign-out and token management): use the web app, signed in.',
      );
    }
    // The session and the token are both still there.
    const me = await testApp.app.inject({ url: '/api/auth/me', headers: browser });
    expect(me.statusCode).toBe(200);
    const listed = await testApp.app.inject({ url: '/api/tokens', headers: browser });
    expect((listed.json() as ListTokensResponse).tokens).toHaveLength(1);
  });

  it('gives the admin scope to admins only, and only an admin-scoped token acts as an admin', async () => {
    const person = await signIn();
    const refused = await makeToken(person.browser, { scopes: ['upload', 'admin'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(
      'Only an admin can make a token with the admin scope.',
    );

    const admin = await signIn('admin@example.com');
    const adminToken = await madeToken(admin.browser, { scopes: ['admin'] });
    const plainToken = await madeToken(admin.browser, { scopes: ['upload', 'read', 'items'] });
    const everyonesUploads = (bearer: Record<string, string>) =>
      testApp.app.inject({ url: '/api/admin/uploads', headers: bearer });
    expect((await everyonesUploads(adminToken.bearer)).statusCode).toBe(200);
    const plain = await everyonesUploads(plainToken.bearer);
    expect(plain.statusCode).toBe(403);
    expect(plain.json().error.code).toBe('insufficient_scope');
    // An admin's token without `admin` edits no one else's item.
    const edit = await editTitle(plainToken.bearer, 'Not an admin here');
    expect(edit.statusCode).toBe(403);
  });

  it('expires after the days chosen (90 by default, a year at most), with a clear 401', async () => {
    const { browser } = await signIn();
    const lasting = await madeToken(browser, {});
    const lifetime = Date.parse(lasting.token.expiresAt) - Date.parse(lasting.token.createdAt);
    expect(Math.round(lifetime / dayMs)).toBe(90);
    const weekly = await madeToken(browser, { expiresInDays: 7 });
    expect(
      Math.round((Date.parse(weekly.token.expiresAt) - Date.parse(weekly.token.createdAt)) / dayMs),
    ).toBe(7);
    const tooLong = await makeToken(browser, { expiresInDays: 3650 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toMatch(/at most 365 days/);

    const uploads = (bearer: Record<string, string>) =>
      testApp.app.inject({ url: '/api/uploads', headers: bearer });
    expect((await uploads(weekly.bearer)).statusCode).toBe(200);
    // A week passes for this token.
    await testApp.database.pool.query(
      "UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1",
      [weekly.token.id],
    );
    const expired = await uploads(weekly.bearer);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toMatch(
      /^This API token expired on \d{4}-\d{2}-\d{2}: make a new one on \/settings\.$/,
    );
    expect((await uploads(lasting.bearer)).statusCode).toBe(200);
    // Still listed, so its owner sees why a script stopped.
    const listed = (
      await testApp.app.inject({ url: '/api/tokens', headers: browser })
    ).json() as ListTokensResponse;
    expect(listed.tokens.map((token) => token.id).sort()).toEqual(
      [lasting.token.id, weekly.token.id].sort(),
    );
  });

  it('revokes every token of the person at once, and no one else’s', async () => {
    const { browser } = await signIn();
    const first = await madeToken(browser, {});
    const second = await madeToken(browser, { scopes: ['read'] });
    const other = await signIn();
    const theirs = await madeToken(other.browser, {});

    const revoked = await testApp.app.inject({
      method: 'DELETE',
      url: '/api/tokens',
      headers: browser,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ success: true, revoked: 2 });
    for (const bearer of [first.bearer, second.bearer]) {
      const response = await testApp.app.inject({ url: '/api/uploads', headers: bearer });
      expect(response.statusCode).toBe(401);
    }
    const listed = await testApp.app.inject({ url: '/api/tokens', headers: browser });
    expect(listed.json().tokens).toEqual([]);
    expect(
      (await testApp.app.inject({ url: '/api/uploads', headers: theirs.bearer })).statusCode,
    ).toBe(200);
  });

  it('stops honoring an admin group a session length after the sign-in that read it', async () => {
    const { user, browser } = await signIn();
    await testApp.database.pool.query(
      "UPDATE users SET groups = '{moderators}', groups_read_at = now() WHERE id = $1",
      [user.id],
    );
    const me = async () =>
      (await testApp.app.inject({ url: '/api/auth/me', headers: browser })).json().user;
    expect((await me()).isAdmin).toBe(true);
    const adminToken = await madeToken(browser, { scopes: ['admin'] });
    const everyonesUploads = () =>
      testApp.app.inject({ url: '/api/admin/uploads', headers: adminToken.bearer });
    expect((await everyonesUploads()).statusCode).toBe(200);

    // SESSION_MAX_AGE_DAYS (30) after the sign-in that read the groups, with none since.
    await testApp.database.pool.query(
      "UPDATE users SET groups_read_at = now() - interval '30 days' WHERE id = $1",
      [user.id],
    );
    expect((await me()).isAdmin).toBe(false);
    const refused = await everyonesUploads();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
  });
});
