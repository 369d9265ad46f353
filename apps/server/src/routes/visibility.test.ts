import type {
  CreateTokenResponse,
  ItemVisibility,
  ListTokensResponse,
  OwnedItemResponse,
} from '@sticky/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createTestApp } from '../test-support/app.ts';
import { insertCategory } from '../test-support/catalog-fixtures.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  startBucketApp,
  waitForUploads,
} from '../test-support/uploads.ts';
import type { BucketApp } from '../test-support/uploads.ts';

/** A word no other test file's items carry, so a search finds only this file's items. */
const word = `vis${Math.random().toString(36).slice(2, 8)}`;

/** Uploads one new GIF and answers its item id once it is ready. */
async function uploadItem(
  testApp: TestApp,
  auth: Record<string, string>,
  title: string,
  fields: Record<string, string> = {},
): Promise<string> {
  const response = await postUploads(
    testApp,
    auth,
    [{ name: `${title}.gif`, bytes: await makeAnimation({ format: 'gif' }) }],
    fields,
  );
  expect(response.statusCode, response.body).toBe(202);
  const uploads = await waitForUploads(testApp, auth);
  const upload = uploads.find((entry) => entry.details.title === title)!;
  expect(upload.state).toBe('ready');
  return upload.itemId!;
}

const patchItem = (testApp: TestApp, auth: Record<string, string>, id: string, body: object) =>
  testApp.app.inject({
    method: 'PATCH',
    url: `/api/items/${id}`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const mediaPathsOf = async (testApp: TestApp, id: string) =>
  (
    await testApp.database.pool.query<{ path: string }>(
      'SELECT DISTINCT path FROM renditions WHERE item_id = $1',
      [id],
    )
  ).rows.map((row) => row.path);

describe('visibility of an item: public, unlisted, private', () => {
  let testApp: TestApp;
  let owner: Record<string, string>;
  let stranger: Record<string, string>;
  let admin: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp({ ADMIN_EMAILS: 'admin@example.com' }, { hasJobs: true });
    owner = sameSiteHeaders(testApp, (await signInAs(testApp, { name: 'Owner' })).cookie);
    stranger = sameSiteHeaders(testApp, (await signInAs(testApp)).cookie);
    admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { email: 'admin@example.com' })).cookie,
    );
    // Uploaders choose from the categories admins made (docs/security.md, "Moderation").
    await insertCategory(testApp.database, { name: `Shots ${word}` });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** What another signed-in person gets from a GET, by their session cookie. */
  const getAs = (auth: Record<string, string>, url: string) =>
    testApp.app.inject({ url, headers: { cookie: auth.cookie! } });

  it('keeps a ShareX upload (its token unlisted by default) out of every list, while its link and media work for others', async () => {
    const made = await testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'ShareX' }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const { secret, token } = made.json() as CreateTokenResponse;
    expect(token.visibility).toBe('unlisted');
    const listed = await testApp.app.inject({ url: '/api/tokens', headers: owner });
    expect((listed.json() as ListTokensResponse).tokens[0]!.visibility).toBe('unlisted');

    // A public item beside it, with the same words and category, so every list has an answer.
    const publicId = await uploadItem(testApp, owner, `Public ${word} shot`, {
      tags: `${word}tag`,
      category: `Shots ${word}`,
    });
    // As ShareX sends it: the file alone, with the token, no visibility field.
    const bearer = { authorization: `Bearer ${secret}` };
    const shareX = await postUploads(testApp, bearer, [
      {
        name: `Screenshot 2026 12 07 ${word}.gif`,
        bytes: await makeAnimation({ format: 'gif' }),
      },
    ]);
    expect(shareX.statusCode, shareX.body).toBe(202);
    const uploads = await waitForUploads(testApp, owner);
    const upload = uploads.find((entry) => entry.details.title.startsWith('Screenshot'))!;
    expect(upload).toMatchObject({ state: 'ready', visibility: 'unlisted' });
    const id = upload.itemId!;
    // Tags and a category as a person would add them later; it stays unlisted.
    const edited = await patchItem(testApp, owner, id, {
      tags: [`${word}tag`],
      category: `Shots ${word}`,
    });
    expect((edited.json() as OwnedItemResponse).item.visibility).toBe('unlisted');

    for (const url of [
      `/v1/gifs/search?q=${word}&limit=50`,
      `/v1/gifs/search?q=${word}tag&limit=50`,
      '/v1/gifs/trending?limit=50',
      `/v1/gifs/related?gif_id=${publicId}&limit=50`,
      '/v1/gifs/categories',
      `/v1/gifs/search/tags?q=${word}`,
      `/v1/gifs/random?tag=${word}tag`,
      `/v2/search?q=${word}&limit=50`,
      '/v2/featured?limit=50',
    ]) {
      const response = await getAs(stranger, url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.body, url).not.toContain(id);
    }
    // The public one is found, so the lists above were asked the right thing.
    expect((await getAs(stranger, `/v1/gifs/search?q=${word}&limit=50`)).body).toContain(publicId);
    expect((await getAs(stranger, `/v1/gifs/trending?limit=50`)).body).toContain(publicId);

    // By its own id it works for anyone signed in: the page's item, ?ids= and /v2/posts.
    const byId = await getAs(stranger, `/v1/gifs/${id}`);
    expect(byId.statusCode).toBe(200);
    expect((await getAs(stranger, `/v1/gifs?ids=${id}`)).body).toContain(id);
    expect((await getAs(stranger, `/v2/posts?ids=${id}`)).body).toContain(id);
    for (const file of await mediaPathsOf(testApp, id)) {
      const media = await testApp.app.inject({ url: `/media/${file}` });
      expect(media.statusCode, file).toBe(200);
    }
    const item = await testApp.app.inject({ url: `/api/items/${id}`, headers: stranger });
    expect(item.statusCode).toBe(200);
    expect((item.json() as OwnedItemResponse).item).toMatchObject({
      visibility: 'unlisted',
      canEdit: false,
    });
  });

  it('uses a token’s own default, the field over it, and the instance default without either', async () => {
    const makeToken = async (visibility: ItemVisibility) => {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { ...owner, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `Script ${visibility}`, visibility }),
      });
      expect(response.statusCode, response.body).toBe(201);
      return { authorization: `Bearer ${(response.json() as CreateTokenResponse).secret}` };
    };
    const publicToken = await makeToken('public');
    const fromToken = await uploadItem(testApp, publicToken, `Token default ${word}`);
    const fromField = await uploadItem(testApp, publicToken, `Field wins ${word}`, {
      visibility: 'private',
    });
    const fromInstance = await uploadItem(testApp, owner, `Instance default ${word}`);
    const visibilityOf = async (id: string) =>
      (
        (await testApp.app.inject({ url: `/api/items/${id}`, headers: owner })).json() as
          OwnedItemResponse | undefined
      )?.item.visibility;
    expect(await visibilityOf(fromToken)).toBe('public');
    expect(await visibilityOf(fromField)).toBe('private');
    expect(await visibilityOf(fromInstance)).toBe('public');

    const wrong = await postUploads(
      testApp,
      owner,
      [{ name: 'x.gif', bytes: await makeAnimation({ format: 'gif' }) }],
      { visibility: 'friends' },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toMatch(/^visibility: /);
  });

  it('makes a private item 404 to everyone but its owner and admins, media included, uncached', async () => {
    const id = await uploadItem(testApp, owner, `Private ${word} diary`);
    const files = await mediaPathsOf(testApp, id);
    expect(files.length).toBeGreaterThan(0);
    // Someone kept its link and made it a favorite while it was public.
    expect((await getAs(stranger, `/v1/gifs?ids=${id}`)).body).toContain(id);

    expect((await patchItem(testApp, stranger, id, { visibility: 'private' })).statusCode).toBe(
      403,
    );
    const changed = await patchItem(testApp, owner, id, { visibility: 'private' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as OwnedItemResponse).item.visibility).toBe('private');

    for (const url of [
      `/v1/gifs/${id}`,
      `/v1/gifs/related?gif_id=${id}`,
      `/api/items/${id}`,
      `/v2/posts?ids=${id}`,
    ]) {
      const response = await getAs(stranger, url);
      expect(response.body, url).not.toContain(`"${id}"`);
      if (!url.startsWith('/v2')) expect(response.statusCode, url).toBe(404);
    }
    // The favorites list leaves it out, like a deleted item.
    expect((await getAs(stranger, `/v1/gifs?ids=${id}`)).body).not.toContain(id);
    for (const file of files) {
      for (const auth of [{}, { cookie: stranger.cookie! }]) {
        const media = await testApp.app.inject({ url: `/media/${file}`, headers: auth });
        expect(media.statusCode, file).toBe(404);
        expect(media.headers['cache-control']).toBe('no-store');
      }
    }
    for (const auth of [owner, admin]) {
      expect(
        (await testApp.app.inject({ url: `/api/items/${id}`, headers: auth })).statusCode,
      ).toBe(200);
      const media = await testApp.app.inject({
        url: `/media/${files[0]}`,
        headers: { cookie: auth.cookie! },
      });
      expect(media.statusCode).toBe(200);
      expect(media.headers['cache-control']).toBe('private, no-store');
    }
    const mine = await waitForUploads(testApp, owner);
    expect(mine.find((upload) => upload.itemId === id)!.visibility).toBe('private');

    // Made public again, everyone sees it again.
    expect((await patchItem(testApp, owner, id, { visibility: 'public' })).statusCode).toBe(200);
    expect((await getAs(stranger, `/v1/gifs/${id}`)).statusCode).toBe(200);
    expect((await testApp.app.inject({ url: `/media/${files[0]}` })).statusCode).toBe(200);
  });

  it('opens a private or hidden item by id for its owner and admins alone, uncached, and 404 to others after them', async () => {
    const made = await testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...owner, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: `Reader ${word}`, scopes: ['read'] }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const ownerToken = { authorization: `Bearer ${(made.json() as CreateTokenResponse).secret}` };
    const privateId = await uploadItem(testApp, owner, `Own ${word} private`, {
      visibility: 'private',
    });
    const hiddenId = await uploadItem(testApp, owner, `Own ${word} hidden`);
    expect((await patchItem(testApp, admin, hiddenId, { isHidden: true })).statusCode).toBe(200);

    for (const id of [privateId, hiddenId]) {
      const url = `/v1/gifs/${id}`;
      for (const headers of [{ cookie: owner.cookie! }, ownerToken, { cookie: admin.cookie! }]) {
        const response = await testApp.app.inject({ url, headers });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
        expect(response.json().data.id).toBe(id);
        expect(response.headers['cache-control']).toBe('private, no-store');
      }
      // Asked by someone else right after, twice: nothing the owner got was kept for them.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const response = await getAs(stranger, url);
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toContain('"images"');
      }
      expect((await getAs(stranger, `/v1/gifs?ids=${id}`)).body).not.toContain(`"${id}"`);
    }
    // An id nobody has is 404 to its would-be owner and to admins alike.
    for (const auth of [owner, admin]) {
      expect((await getAs(auth, '/v1/gifs/nosuchitem0000')).statusCode).toBe(404);
    }
  });

  it('takes an item made private out of kept trending and search pages at once', async () => {
    const id = await uploadItem(testApp, owner, `Kept ${word} page`);
    const pages = [`/v1/gifs/trending?limit=50`, `/v1/gifs/search?q=${word}&limit=50`];
    // Asked twice: the second answer is the kept one.
    for (const url of pages) {
      expect((await getAs(stranger, url)).body).toContain(id);
      expect((await getAs(stranger, url)).body).toContain(id);
    }
    expect((await patchItem(testApp, owner, id, { visibility: 'private' })).statusCode).toBe(200);
    for (const url of pages) expect((await getAs(stranger, url)).body, url).not.toContain(id);
  });

  it('takes it out of another instance’s kept pages too, once that instance hears of it', async () => {
    // A second server on the same database, as behind a load balancer (docs/scaling.md).
    const other = await buildApp({
      config: testApp.config,
      database: testApp.database,
      media: testApp.media,
      sessionSecret: testApp.config.sessionSecret!,
    });
    try {
      const id = await uploadItem(testApp, owner, `Elsewhere ${word} kept`);
      const pages = [`/v1/gifs/trending?limit=50`, `/v1/gifs/search?q=${word}&limit=50`];
      const read = async (url: string) =>
        (await other.inject({ url, headers: { cookie: stranger.cookie! } })).body;
      for (const url of pages) {
        await expect.poll(() => read(url)).toContain(id);
        expect(await read(url)).toContain(id);
      }
      expect((await patchItem(testApp, owner, id, { visibility: 'unlisted' })).statusCode).toBe(
        200,
      );
      for (const url of pages) await expect.poll(() => read(url)).not.toContain(id);
    } finally {
      await other.close();
    }
  });

  it('does not name another person’s unlisted item to whoever uploads the same bytes', async () => {
    const bytes = await makeAnimation({ format: 'gif' });
    const first = await postUploads(testApp, owner, [{ name: 'mine.gif', bytes }], {
      title: `Secret ${word} copy`,
      visibility: 'unlisted',
    });
    expect(first.statusCode).toBe(202);
    const id = (await waitForUploads(testApp, owner)).find(
      (upload) => upload.details.title === `Secret ${word} copy`,
    )!.itemId!;
    const again = await postUploads(testApp, stranger, [{ name: 'copy.gif', bytes }]);
    expect(again.statusCode).toBe(400);
    expect(again.body).not.toContain(id);
    expect(again.json().error.message).toContain('Ask them for its link');
  });
});

describe('a private item on S3', () => {
  let bucket: BucketApp;
  beforeAll(async () => {
    bucket = await startBucketApp();
  });
  afterAll(async () => {
    await bucket?.close();
  });

  it('answers its media 404 with no-store to others, and to its owner through the server', async () => {
    const { testApp, auth } = bucket;
    const id = await uploadItem(testApp, auth, `Bucket ${word} secret`, { visibility: 'private' });
    const stranger = (await signInAs(testApp)).cookie;
    const files = await mediaPathsOf(testApp, id);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const headers of [{}, { cookie: stranger }]) {
        const media = await testApp.app.inject({ url: `/media/${file}`, headers });
        expect(media.statusCode, file).toBe(404);
        expect(media.headers['cache-control']).toBe('no-store');
      }
    }
    const own = await testApp.app.inject({
      url: `/media/${files[0]}`,
      headers: { cookie: auth.cookie! },
    });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.length).toBeGreaterThan(0);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(
      (await testApp.app.inject({ url: `/v1/gifs/${id}`, headers: { cookie: stranger } }))
        .statusCode,
    ).toBe(404);
  });
});
