import fs from 'node:fs';
import path from 'node:path';
import type { CreateTokenResponse, OwnedItemResponse } from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';
import { createTestApp } from '../test-support/app.ts';
import { insertCategory } from '../test-support/catalog-fixtures.ts';
import type { TestApp } from '../test-support/app.ts';
import { TestBrowser } from '../test-support/browser.ts';
import { signInAtClaimsIssuer, startClaimsIssuer } from '../test-support/claims-issuer.ts';
import { listenOnFreePort } from '../test-support/listen.ts';
import type { ListeningServer } from '../test-support/listen.ts';
import { makeAnimation as makeSeededAnimation } from '../test-support/media.ts';
import type { TestIssuer } from '../test-support/oidc.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  buildMultipart,
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';

const apiKey = 'items-test-key-0123456789abcdefghijklm';

describe('/api/items and /api/tokens', () => {
  let testApp: TestApp;
  let owner: Record<string, string>;
  let stranger: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp(
      { STICKY_API_KEYS: apiKey, ADMIN_EMAILS: 'admin@example.com' },
      { hasJobs: true },
    );
    owner = sameSiteHeaders(testApp, (await signInAs(testApp, { name: 'Owner' })).cookie);
    // Uploaders choose from the categories admins made (docs/security.md, "Moderation").
    const animals = await insertCategory(testApp.database, { name: 'Animals' });
    await insertCategory(testApp.database, { name: 'Wombats', parentId: animals.id });
    stranger = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { email: 'admin@example.com' })).cookie,
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** Uploads one new GIF as the owner and answers its item id once it is ready. */
  async function uploadItem(title: string, tags = 'itemtest'): Promise<string> {
    const response = await postUploads(
      testApp,
      owner,
      [{ name: `${title}.gif`, bytes: await makeAnimation({ format: 'gif' }) }],
      { title, tags },
    );
    expect(response.statusCode).toBe(202);
    const uploads = await waitForUploads(testApp, owner);
    const upload = uploads.find((entry) => entry.details.title === title)!;
    expect(upload.state).toBe('ready');
    return upload.itemId!;
  }

  const v1Ids = async (url: string) => {
    const response = await testApp.app.inject({ url: `${url}&api_key=${apiKey}` });
    return (response.json() as { data: Array<{ id: string }> }).data.map((item) => item.id);
  };
  const v1Titles = async (url: string) => {
    const response = await testApp.app.inject({ url: `${url}&api_key=${apiKey}` });
    const { data } = response.json() as { data: Array<{ id: string; title: string }> };
    return new Map(data.map((item) => [item.id, item.title]));
  };
  const patch = (auth: Record<string, string>, id: string, body: object) =>
    testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${id}`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('lets the owner edit, and every list shows the change at once', async () => {
    const id = await uploadItem('Quokka grin');
    expect(await v1Ids('/v1/gifs/search?q=quokka')).toEqual([id]);
    const edited = await patch(owner, id, {
      title: 'Wombat waddle',
      tags: ['marsupial'],
      category: 'Animals/Wombats',
      rating: 'pg',
    });
    expect(edited.statusCode).toBe(200);
    expect((edited.json() as OwnedItemResponse).item).toMatchObject({
      id,
      details: {
        title: 'Wombat waddle',
        tags: ['marsupial'],
        category: 'Animals/Wombats',
        rating: 'pg',
      },
      canEdit: true,
      canDelete: true,
      canHide: false,
    });
    expect(await v1Ids('/v1/gifs/search?q=wombat&rating=pg')).toEqual([id]);
    expect(await v1Ids('/v1/gifs/search?q=quokka&rating=pg')).toEqual([]);
    expect(await v1Ids('/v1/gifs/search?q=marsupial&rating=pg')).toEqual([id]);
    // The rating moved it out of a G-rated search.
    expect(await v1Ids('/v1/gifs/search?q=wombat&rating=g')).toEqual([]);
    const item = await testApp.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` });
    expect(item.json().data).toMatchObject({ title: 'Wombat waddle' });
    expect(item.json().data.slug).toMatch(/^wombat-waddle-/);
  });

  it('shows an edit in /v1 trending and related too, not only in search', async () => {
    const otter = await uploadItem('Otter float', 'wetland');
    const beaver = await uploadItem('Beaver build', 'wetland');
    const related = `/v1/gifs/related?gif_id=${otter}&limit=50`;
    const trending = '/v1/gifs/trending?limit=50';
    // Both answers are made and kept before the edit.
    expect((await v1Titles(related)).get(beaver)).toBe('Beaver build');
    expect((await v1Titles(trending)).get(beaver)).toBe('Beaver build');

    // No tag and no title word in common with the otter any more.
    expect((await patch(owner, beaver, { title: 'Heron wade', tags: ['bird'] })).statusCode).toBe(
      200,
    );
    expect((await v1Titles(trending)).get(beaver)).toBe('Heron wade');
    expect((await v1Titles(related)).has(beaver)).toBe(false);

    // Newly related: a kept answer that did not hold it may lack it for the kept bound (10 s),
    // or less when the related lists' rebuild runs (docs/catalog.md, "Caches and versions").
    expect((await patch(owner, beaver, { tags: ['wetland'] })).statusCode).toBe(200);
    await expect
      .poll(async () => (await v1Titles(related)).get(beaver), { timeout: 15_000, interval: 250 })
      .toBe('Heron wade');
  });

  it('lets an admin edit and delete anyone’s item, and nobody else but its owner', async () => {
    const id = await uploadItem('Moderated mole');
    const refusedEdit = await patch(stranger, id, { title: 'Not yours' });
    expect(refusedEdit.statusCode).toBe(403);
    const refusedDelete = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${id}`,
      headers: stranger,
    });
    expect(refusedDelete.statusCode).toBe(403);
    expect(refusedDelete.json().error.message).toBe(
      'Only the person who uploaded this item, or an admin, may delete it.',
    );

    const edited = await patch(admin, id, { title: 'Tidied mole', tags: ['moderated'] });
    expect(edited.statusCode).toBe(200);
    expect((edited.json() as OwnedItemResponse).item).toMatchObject({
      details: { title: 'Tidied mole', tags: ['moderated'] },
      owner: { name: 'Owner' },
      canEdit: true,
      canDelete: true,
      canHide: true,
    });
    // Its owner sees the admin's edit.
    const mine = await testApp.app.inject({ url: `/api/items/${id}`, headers: owner });
    expect(mine.json().item.details.title).toBe('Tidied mole');
    expect(await v1Ids('/v1/gifs/search?q=tidied')).toEqual([id]);

    const removed = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${id}`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, id });
    expect(await v1Ids('/v1/gifs/search?q=tidied')).toEqual([]);
    expect((await testApp.app.inject({ url: `/api/items/${id}`, headers: owner })).statusCode).toBe(
      404,
    );
  });

  it('refuses edits, hiding and deletion by anyone else with 403, saying why', async () => {
    const id = await uploadItem('Stranger danger');
    const edit = await patch(stranger, id, { title: 'Mine now' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.message).toBe(
      'Only the person who uploaded this item, or an admin, may edit it.',
    );
    const remove = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${id}`,
      headers: stranger,
    });
    expect(remove.statusCode).toBe(403);
    const hide = await patch(owner, id, { isHidden: true });
    expect(hide.statusCode).toBe(403);
    expect(hide.json().error.message).toBe('Only admins may hide or unhide an item.');
    const view = await testApp.app.inject({ url: `/api/items/${id}`, headers: stranger });
    expect(view.json().item).toMatchObject({ canEdit: false, canDelete: false, owner: null });
  });

  it('lets an admin hide any item: gone from search, trending and /v1 at once, back when unhidden', async () => {
    const id = await uploadItem('Hidden hedgehog');
    expect(await v1Ids('/v1/gifs/search?q=hedgehog')).toEqual([id]);
    expect(await v1Ids('/v1/gifs/trending?limit=50')).toContain(id);
    const hidden = await patch(admin, id, { isHidden: true });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json().item).toMatchObject({ isHidden: true, owner: { name: 'Owner' } });

    expect(await v1Ids('/v1/gifs/search?q=hedgehog')).toEqual([]);
    expect(await v1Ids('/v1/gifs/trending?limit=50')).not.toContain(id);
    expect(await v1Ids(`/v1/gifs?ids=${id}`)).toEqual([]);
    const byId = await testApp.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` });
    expect(byId.statusCode).toBe(404);
    // Its owner still sees it, hidden, among their uploads; others do not see it at all.
    const mine = await waitForUploads(testApp, owner);
    expect(mine.find((upload) => upload.itemId === id)!.state).toBe('hidden');
    expect(
      (await testApp.app.inject({ url: `/api/items/${id}`, headers: stranger })).statusCode,
    ).toBe(404);

    await patch(admin, id, { isHidden: false });
    expect(await v1Ids('/v1/gifs/search?q=hedgehog')).toEqual([id]);
    expect((await testApp.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` })).statusCode).toBe(
      200,
    );
  });

  it('keeps a hidden item’s own files from all but admins and its owner, uncached, until unhidden', async () => {
    // Two GIFs with the same frames at another pace: their animations differ, their stills are
    // the same bytes, so those files are shared (content-addressed).
    const seed = 500_000 + Math.floor(Math.random() * 100_000);
    const uploadFile = async (title: string, delay: number) => {
      const bytes = await makeSeededAnimation({
        format: 'gif',
        frames: 3,
        width: 40,
        seed,
        delays: [delay, delay, delay],
      });
      const response = await postUploads(testApp, owner, [{ name: `${title}.gif`, bytes }], {
        title,
      });
      expect(response.statusCode).toBe(202);
      const uploads = await waitForUploads(testApp, owner);
      return uploads.find((entry) => entry.details.title === title)!.itemId!;
    };
    const hiddenId = await uploadFile('Secret slow loris', 70);
    const visibleId = await uploadFile('Public slow loris', 110);
    const pathsOf = async (id: string) =>
      (
        await testApp.database.pool.query<{ path: string }>(
          'SELECT path FROM renditions WHERE item_id = $1',
          [id],
        )
      ).rows.map((row) => row.path);
    const visiblePaths = new Set(await pathsOf(visibleId));
    const hiddenPaths = await pathsOf(hiddenId);
    const own = hiddenPaths.filter((file) => !visiblePaths.has(file));
    const shared = hiddenPaths.filter((file) => visiblePaths.has(file));
    expect(own.length).toBeGreaterThan(0);
    expect(shared.length).toBeGreaterThan(0);
    const fetchMedia = (file: string, auth: Record<string, string> = {}) =>
      testApp.app.inject({ url: `/media/${file}`, headers: auth });

    const before = await fetchMedia(own[0]!);
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    expect((await patch(admin, hiddenId, { isHidden: true })).statusCode).toBe(200);
    // Gone for everyone else at once, and the 404 is not kept either.
    for (const file of own) {
      const anonymous = await fetchMedia(file);
      expect(anonymous.statusCode, file).toBe(404);
      expect(anonymous.headers['cache-control']).toBe('no-store');
      expect((await fetchMedia(file, stranger)).statusCode, file).toBe(404);
    }
    // Its owner and admins still see it (My uploads, /admin), never from a cache.
    for (const auth of [owner, admin]) {
      const seen = await fetchMedia(own[0]!, auth);
      expect(seen.statusCode).toBe(200);
      expect(seen.rawPayload.length).toBeGreaterThan(0);
      expect(seen.headers['cache-control']).toBe('private, no-store');
      expect(seen.headers['cross-origin-resource-policy']).toBe('same-site');
    }
    // A file a visible item shares stays public.
    const still = await fetchMedia(shared[0]!);
    expect(still.statusCode).toBe(200);
    expect(still.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    expect((await patch(admin, hiddenId, { isHidden: false })).statusCode).toBe(200);
    const after = await fetchMedia(own[0]!);
    expect(after.statusCode).toBe(200);
    expect(after.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('deletes an item with its files, for its owner', async () => {
    const id = await uploadItem('Doomed dodo');
    const files = (
      await testApp.database.pool.query<{ path: string }>(
        'SELECT path FROM renditions WHERE item_id = $1',
        [id],
      )
    ).rows.map((row) => path.join(testApp.config.mediaDir, row.path));
    expect(files.length).toBeGreaterThan(0);
    const response = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${id}`,
      headers: owner,
    });
    expect(response.json()).toEqual({ success: true, id });
    expect(await v1Ids('/v1/gifs/search?q=dodo')).toEqual([]);
    expect((await testApp.app.inject({ url: `/v1/gifs/${id}?api_key=${apiKey}` })).statusCode).toBe(
      404,
    );
    // Later renditions may still be on their way: the job finds the item gone and stores none.
    for (const file of files) expect(fs.existsSync(file), file).toBe(false);
    const again = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${id}`,
      headers: owner,
    });
    expect(again.statusCode).toBe(404);
  });

  it('makes a token shown once, which uploads like curl does, until it is revoked', async () => {
    const made = await testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'ShareX on my laptop' }),
    });
    expect(made.statusCode).toBe(201);
    const { token, secret } = made.json() as CreateTokenResponse;
    expect(secret).toMatch(/^sticky_[A-Za-z0-9_-]{43}$/);
    const stored = await testApp.database.pool.query('SELECT token_hash FROM api_tokens');
    expect(JSON.stringify(stored.rows)).not.toContain(secret);

    const listed = await testApp.app.inject({ url: '/api/tokens', headers: owner });
    expect(listed.json().tokens).toEqual([{ ...token, lastUsedAt: null }]);
    expect(listed.body).not.toContain(secret);

    // curl: no cookie, no Origin, just the token.
    const form = buildMultipart(
      [{ name: 'from-curl.gif', bytes: await makeAnimation({ format: 'gif' }) }],
      { title: 'Curled capybara' },
    );
    const upload = await testApp.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { authorization: `Bearer ${secret}`, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(upload.statusCode).toBe(202);
    const viaToken = await waitForUploads(testApp, { authorization: `Bearer ${secret}` });
    expect(viaToken.find((entry) => entry.fileName === 'from-curl.gif')!.state).toBe('ready');
    const afterUse = await testApp.app.inject({ url: '/api/tokens', headers: owner });
    expect(afterUse.json().tokens[0].lastUsedAt).toEqual(expect.any(String));

    // A token cannot make tokens.
    const minted = await testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'another' }),
    });
    expect(minted.statusCode).toBe(403);
    // Nobody else can revoke it.
    const theirs = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      headers: stranger,
    });
    expect(theirs.statusCode).toBe(404);

    const revoked = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      headers: owner,
    });
    expect(revoked.statusCode).toBe(200);
    const refused = await testApp.app.inject({
      url: '/api/uploads',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toBe(
      'This API token is not valid: it was revoked or mistyped.',
    );
    const malformed = await testApp.app.inject({
      url: '/api/uploads',
      headers: { authorization: 'Token abc' },
    });
    expect(malformed.statusCode).toBe(401);
    // Another scheme is not ours: a proxy's Basic auth passed on leaves the session in charge.
    const behindBasicAuth = await testApp.app.inject({
      url: '/api/uploads',
      headers: { ...owner, authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(behindBasicAuth.statusCode).toBe(200);

    // An address that keeps sending wrong tokens is refused for a while.
    const guesses: number[] = [];
    for (let attempt = 0; attempt < 35; attempt += 1) {
      const guess = await testApp.app.inject({
        url: '/api/uploads',
        remoteAddress: '198.51.100.7',
        headers: { authorization: `Bearer sticky_${'x'.repeat(42)}${attempt % 10}` },
      });
      guesses.push(guess.statusCode);
    }
    expect(guesses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(guesses.slice(30)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('admins by a group in the ID token, under a claim named by OIDC_GROUPS_CLAIM', () => {
  let listening: ListeningServer;
  let issuer: TestIssuer;
  let testApp: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    listening = await listenOnFreePort();
    baseUrl = `http://localhost:${listening.port}`;
    // The groups are in the ID token only, under `roles`: userinfo has none to fall back on.
    issuer = await startClaimsIssuer({
      redirectUri: `${baseUrl}/api/auth/callback`,
      idTokenClaims: { roles: ['staff', 'sticky-moderators'] },
    });
    testApp = await createTestApp(
      {
        PUBLIC_URL: baseUrl,
        ...issuer.env,
        OIDC_ADMIN_GROUPS: 'sticky-moderators',
        OIDC_GROUPS_CLAIM: 'roles',
      },
      { serverFactory: listening.serverFactory, hasJobs: true },
    );
    await testApp.app.ready();
  });
  afterAll(async () => {
    await testApp?.close();
    await listening?.close();
    await issuer?.close();
  });

  it('makes the person an admin, who may then hide and edit anyone’s upload', async () => {
    const browser = new TestBrowser();
    const start = await browser.request(`${baseUrl}/api/auth/googleAuth`);
    const callbackUrl = await signInAtClaimsIssuer(
      browser,
      start.location!,
      'moderator@example.com',
    );
    const signedIn = await browser.request(callbackUrl);
    expect(signedIn.status, signedIn.body).toBe(302);
    const me = await browser.request(`${baseUrl}/api/auth/me`);
    expect(JSON.parse(me.body).user).toMatchObject({
      email: 'moderator@example.com',
      isAdmin: true,
    });
    const stored = await testApp.database.pool.query(
      "SELECT groups FROM users WHERE email = 'moderator@example.com'",
    );
    expect(stored.rows).toEqual([{ groups: ['staff', 'sticky-moderators'] }]);

    const owner = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    const uploaded = await postUploads(testApp, owner, [
      { name: 'someone-else.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(uploaded.statusCode).toBe(202);
    const [upload] = await waitForUploads(testApp, owner);
    const moderator = sameSiteHeaders(testApp, await browser.jar.getCookieString(baseUrl));
    const hidden = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${upload!.itemId}`,
      headers: { ...moderator, 'content-type': 'application/json' },
      payload: JSON.stringify({ isHidden: true, title: 'Moderated' }),
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((hidden.json() as OwnedItemResponse).item).toMatchObject({
      isHidden: true,
      details: { title: 'Moderated' },
    });
  });
});

describe('changes to items per person', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // An hour's window, so no budget renews in the middle of the burst.
    testApp = await createTestApp(
      { ADMIN_EMAILS: 'admin@example.com' },
      { rateLimitWindowMs: 60 * 60_000 },
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  async function insertOwnedItem(userId: string, title: string): Promise<string> {
    const [id] = (await insertCatalogItems(testApp.database, [{ title }])) as [string];
    await testApp.database.pool.query('UPDATE items SET owner_id = $1 WHERE id = $2', [userId, id]);
    return id;
  }

  it('allows 30 edits and deletions a minute per person, then 429 saying so; others and admins go on', async () => {
    const person = await signInAs(testApp);
    const auth = sameSiteHeaders(testApp, person.cookie);
    const itemId = await insertOwnedItem(person.user.id, 'Edited over and over');
    const edit = (headers: Record<string, string>, n: number) =>
      testApp.app.inject({
        method: 'PATCH',
        url: `/api/items/${itemId}`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { title: `Edit number ${n}` },
      });
    for (let n = 1; n <= 29; n += 1) expect((await edit(auth, n)).statusCode).toBe(200);
    // Deletions share the budget with edits.
    const other = await insertOwnedItem(person.user.id, 'Deleted');
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/items/${other}`,
      headers: auth,
    });
    expect(deleted.statusCode).toBe(200);
    const refused = await edit(auth, 31);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      success: false,
      error: {
        code: 'rate_limited',
        message:
          'Too many changes to items: at most 30 edits and deletions a minute. Try again in a minute.',
      },
    });

    const neighbour = await signInAs(testApp);
    const theirs = await insertOwnedItem(neighbour.user.id, 'Someone else’s');
    const theirEdit = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/items/${theirs}`,
      headers: {
        ...sameSiteHeaders(testApp, neighbour.cookie),
        'content-type': 'application/json',
      },
      payload: { title: 'Theirs, edited' },
    });
    expect(theirEdit.statusCode).toBe(200);
    const admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { email: 'admin@example.com' })).cookie,
    );
    expect((await edit(admin, 32)).statusCode).toBe(200);
  });
});
