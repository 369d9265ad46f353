import type {
  CreateUploadsResponse,
  ListAuditResponse,
  ListBlockedHashesResponse,
  ListReportsResponse,
  ManagedCategoryResponse,
  UploadLimitsResponse,
} from '@sticky/contracts';
import { categorySchema, listEnvelopeSchema } from '@sticky/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMedia } from '../catalog/import/import-media.ts';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { signInAs } from '../test-support/sign-in.ts';
import {
  makeAnimation,
  postUploads,
  sameSiteHeaders,
  waitForUploads,
} from '../test-support/uploads.ts';

const apiKey = 'moderation-test-key-0123456789abcdefghij';
const neutralReason = "This file can't be uploaded here.";

describe('moderation', () => {
  let testApp: TestApp;
  let ada: Record<string, string>;
  let bob: Record<string, string>;
  let bobId: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    testApp = await createTestApp(
      { STICKY_API_KEYS: apiKey, ADMIN_EMAILS: 'admin@example.com' },
      { hasJobs: true },
    );
    const adaSignIn = await signInAs(testApp, { name: 'Ada', email: 'ada@example.com' });
    ada = sameSiteHeaders(testApp, adaSignIn.cookie);
    const bobSignIn = await signInAs(testApp, { name: 'Bob', email: 'bob@example.com' });
    bob = sameSiteHeaders(testApp, bobSignIn.cookie);
    bobId = bobSignIn.user.id;
    admin = sameSiteHeaders(
      testApp,
      (await signInAs(testApp, { name: 'Admin', email: 'admin@example.com' })).cookie,
    );
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const request = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    auth: Record<string, string>,
    payload?: unknown,
  ) => testApp.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

  /** Uploads a file as `auth` and answers its item id once it is ready. */
  async function uploadItem(auth: Record<string, string>, name: string, bytes: Buffer) {
    const response = await postUploads(testApp, auth, [{ name, bytes }], { title: name });
    expect(response.statusCode, response.body).toBe(202);
    const uploads = await waitForUploads(testApp, auth);
    const upload = uploads.find((entry) => entry.fileName === name)!;
    expect(upload.state).toBe('ready');
    return upload.itemId!;
  }

  async function readAudit(): Promise<ListAuditResponse['events']> {
    const response = await request('GET', '/api/admin/audit?limit=100', admin);
    expect(response.statusCode).toBe(200);
    return (response.json() as ListAuditResponse).events;
  }

  it('refuses the bytes of an item an admin hid, to its owner and to anyone, saying nothing of it', async () => {
    const bytes = await makeAnimation({ format: 'gif' });
    const itemId = await uploadItem(ada, 'hidden-one.gif', bytes);
    const hidden = await request('PATCH', `/api/items/${itemId}`, admin, { isHidden: true });
    expect(hidden.statusCode).toBe(200);

    // The owner deletes the hidden item and sends it again: refused.
    expect((await request('DELETE', `/api/items/${itemId}`, ada)).statusCode).toBe(200);
    const again = await postUploads(testApp, ada, [{ name: 'again.gif', bytes }]);
    expect(again.statusCode).toBe(403);
    expect(again.json().error.message).toBe(`again.gif: ${neutralReason}`);

    // Someone else, beside a file of their own that is taken.
    const other = await makeAnimation({ format: 'gif' });
    const mixed = await postUploads(testApp, bob, [
      { name: 'copy.gif', bytes },
      { name: 'mine.gif', bytes: other },
    ]);
    expect(mixed.statusCode).toBe(202);
    const receipts = (mixed.json() as CreateUploadsResponse).uploads;
    expect(receipts[0]).toMatchObject({
      state: 'failed',
      reason: `copy.gif: ${neutralReason}`,
      itemId: null,
      url: null,
    });
    expect(receipts[1]).toMatchObject({ state: 'processing' });
    await waitForUploads(testApp, bob);

    // The import CLI goes through the same import: refused too.
    const imported = await importMedia(
      { config: testApp.config, database: testApp.database, media: testApp.media },
      { bytes, fileName: 'cli.gif', metadata: { title: 'Cli', tags: [], type: 'gif' } },
    );
    expect(imported).toEqual({ status: 'rejected', reason: "this file can't be uploaded here" });

    const audit = await readAudit();
    expect(audit.map((event) => [event.action, event.target])).toEqual(
      expect.arrayContaining([
        ['item.hide', `item ${itemId}`],
        ['hash.block', expect.stringMatching(/^[0-9a-f]{64}$/)],
      ]),
    );
    // Deleted by its owner: not an admin action, so not in the audit list.
    expect(audit.some((event) => event.action === 'item.delete')).toBe(false);
  });

  it('keeps the bytes of an unhidden item blocked until an admin unblocks them', async () => {
    const bytes = await makeAnimation({ format: 'gif' });
    const itemId = await uploadItem(ada, 'unhidden.gif', bytes);
    expect(
      (await request('PATCH', `/api/items/${itemId}`, admin, { isHidden: true })).statusCode,
    ).toBe(200);
    expect(
      (await request('PATCH', `/api/items/${itemId}`, admin, { isHidden: false })).statusCode,
    ).toBe(200);
    const refused = await postUploads(testApp, bob, [{ name: 'copy.gif', bytes }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(`copy.gif: ${neutralReason}`);
    const actions = (await readAudit()).map((event) => [event.action, event.target]);
    expect(actions).toContainEqual(['item.unhide', `item ${itemId}`]);
  });

  it('blocks both the stored and the received hash of a removed item, and an admin can unblock them', async () => {
    // A JPEG with EXIF: what is stored is stripped, so its hash differs from what was sent.
    const sent = await sharp({
      create: { width: 24, height: 20, channels: 3, background: { r: 200, g: 30, b: 90 } },
    })
      .jpeg()
      .withExif({ IFD0: { Artist: 'Moderation test' } })
      .toBuffer();
    const itemId = await uploadItem(bob, 'exif.jpg', sent);
    const removed = await request('DELETE', `/api/items/${itemId}`, admin);
    expect(removed.statusCode).toBe(200);

    const list = await request('GET', '/api/admin/blocked-hashes?limit=100', admin);
    const hashes = (list.json() as ListBlockedHashesResponse).hashes.filter(
      (hash) => hash.itemId === itemId,
    );
    expect(hashes).toHaveLength(2);

    const refused = await postUploads(testApp, ada, [{ name: 'exif.jpg', bytes: sent }]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(`exif.jpg: ${neutralReason}`);

    expect((await request('GET', '/api/admin/blocked-hashes', bob)).statusCode).toBe(403);
    for (const hash of hashes) {
      expect(
        (await request('DELETE', `/api/admin/blocked-hashes/${hash.sha256}`, bob)).statusCode,
      ).toBe(403);
      const unblocked = await request('DELETE', `/api/admin/blocked-hashes/${hash.sha256}`, admin);
      expect(unblocked.statusCode).toBe(200);
    }
    const allowed = await postUploads(testApp, ada, [{ name: 'exif.jpg', bytes: sent }]);
    expect(allowed.statusCode).toBe(202);
    expect((allowed.json() as CreateUploadsResponse).uploads[0]?.state).toBe('processing');
    await waitForUploads(testApp, ada);

    const actions = (await readAudit()).map((event) => [event.action, event.target]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['item.delete', `item ${itemId}`],
        ['hash.unblock', hashes[0]!.sha256],
        ['hash.unblock', hashes[1]!.sha256],
      ]),
    );
  });

  it('stops a person from uploading with a reason they see, until an admin lifts it', async () => {
    const reason = 'Repeated spam; write to the admins.';
    expect(
      (await request('PUT', `/api/admin/upload-bans/${bobId}`, ada, { reason })).statusCode,
    ).toBe(403);
    const banned = await request('PUT', `/api/admin/upload-bans/${bobId}`, admin, { reason });
    expect(banned.statusCode).toBe(200);

    const refused = await postUploads(testApp, bob, [
      { name: 'nope.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(`An admin has stopped your uploads: ${reason}`);
    const limits = (
      await request('GET', '/api/uploads/limits', bob)
    ).json() as UploadLimitsResponse;
    expect(limits).toMatchObject({
      canUpload: false,
      banReason: `An admin has stopped your uploads: ${reason}`,
    });
    const bans = await request('GET', '/api/admin/upload-bans', admin);
    expect(bans.json().bans).toEqual([
      expect.objectContaining({
        person: { id: bobId, name: 'Bob', email: 'bob@example.com' },
        reason,
      }),
    ]);

    expect((await request('DELETE', `/api/admin/upload-bans/${bobId}`, admin)).statusCode).toBe(
      200,
    );
    const allowed = await postUploads(testApp, bob, [
      { name: 'yes.gif', bytes: await makeAnimation({ format: 'gif' }) },
    ]);
    expect(allowed.statusCode).toBe(202);
    expect(
      ((await request('GET', '/api/uploads/limits', bob)).json() as UploadLimitsResponse).banReason,
    ).toBeNull();
    await waitForUploads(testApp, bob);

    const actions = (await readAudit()).map((event) => [event.action, event.target, event.detail]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['uploader.ban', 'Bob (bob@example.com)', reason],
        ['uploader.unban', 'Bob (bob@example.com)', ''],
      ]),
    );
  });

  it('takes a report, lists it to admins only, and lets an admin resolve it', async () => {
    const itemId = await uploadItem(ada, 'reported.gif', await makeAnimation({ format: 'gif' }));
    const url = `/api/items/${itemId}/reports`;
    expect((await request('POST', url, bob, { reason: 'rude' })).statusCode).toBe(400);
    const tooLong = await request('POST', url, bob, { reason: 'spam', note: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toMatch(/at most 500 characters/);
    const crossSite = await testApp.app.inject({
      method: 'POST',
      url,
      headers: { ...bob, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: { reason: 'spam' },
    });
    expect(crossSite.statusCode).toBe(403);

    const created = await request('POST', url, bob, { reason: 'harassment', note: ' Mean. ' });
    expect(created.statusCode).toBe(201);
    const reportId = created.json().report.id as string;
    const twice = await request('POST', url, bob, { reason: 'spam' });
    expect(twice.statusCode).toBe(409);
    expect(
      (await request('POST', '/api/items/nope/reports', bob, { reason: 'spam' })).statusCode,
    ).toBe(404);

    expect((await request('GET', '/api/admin/reports', bob)).statusCode).toBe(403);
    const listed = (
      await request('GET', '/api/admin/reports', admin)
    ).json() as ListReportsResponse;
    expect(listed.reports).toEqual([
      expect.objectContaining({
        id: reportId,
        itemId,
        itemTitle: 'reported.gif',
        itemUrl: expect.stringContaining('/gif/'),
        reporter: { id: bobId, name: 'Bob', email: 'bob@example.com' },
        reason: 'harassment',
        note: 'Mean.',
        state: 'open',
      }),
    ]);

    expect(
      (await request('PATCH', `/api/admin/reports/${reportId}`, bob, { state: 'resolved' }))
        .statusCode,
    ).toBe(403);
    const resolved = await request('PATCH', `/api/admin/reports/${reportId}`, admin, {
      state: 'resolved',
    });
    expect(resolved.statusCode).toBe(200);
    const open = (await request('GET', '/api/admin/reports', admin)).json() as ListReportsResponse;
    expect(open.reports).toEqual([]);
    const closed = (
      await request('GET', '/api/admin/reports?state=resolved', admin)
    ).json() as ListReportsResponse;
    expect(closed.reports.map((report) => report.id)).toEqual([reportId]);
    const again = await request('PATCH', `/api/admin/reports/${reportId}`, admin, {
      state: 'dismissed',
    });
    expect(again.statusCode).toBe(409);
    // Closed, so the same person may report it again.
    expect((await request('POST', url, bob, { reason: 'spam' })).statusCode).toBe(201);

    const actions = (await readAudit()).map((event) => [event.action, event.target]);
    expect(actions).toContainEqual(['report.resolve', `item ${itemId}`]);
  });

  it('lets only admins make categories; uploads and edits choose existing ones; empty ones are not listed', async () => {
    const made = await request('POST', '/api/admin/categories', ada, { name: 'Wombats' });
    expect(made.statusCode).toBe(403);
    const unknown = await postUploads(
      testApp,
      ada,
      [{ name: 'cat.gif', bytes: await makeAnimation({ format: 'gif' }) }],
      { category: 'Marsupials/Wombats' },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/choose one of the existing categories/);

    const parent = await request('POST', '/api/admin/categories', admin, { name: 'Marsupials' });
    expect(parent.statusCode).toBe(201);
    const parentId = (parent.json() as ManagedCategoryResponse).category.id;
    const child = await request('POST', '/api/admin/categories', admin, {
      name: 'Wombats',
      parentId,
    });
    expect((child.json() as ManagedCategoryResponse).category).toMatchObject({
      path: 'Marsupials/Wombats',
      itemCount: 0,
    });
    const duplicate = await request('POST', '/api/admin/categories', admin, { name: 'marsupials' });
    expect(duplicate.statusCode).toBe(409);

    const v1 = async () =>
      listEnvelopeSchema(categorySchema).parse(
        (await request('GET', `/v1/gifs/categories?api_key=${apiKey}`, {})).json(),
      ).data;
    // Made but empty: not listed.
    expect((await v1()).map((category) => category.name)).not.toContain('Marsupials');

    const itemId = await uploadItem(ada, 'wombat.gif', await makeAnimation({ format: 'gif' }));
    const badEdit = await request('PATCH', `/api/items/${itemId}`, ada, { category: 'Nope' });
    expect(badEdit.statusCode).toBe(400);
    const edit = await request('PATCH', `/api/items/${itemId}`, ada, {
      category: 'Marsupials/Wombats',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().item.details.category).toBe('Marsupials/Wombats');
    const listed = (await v1()).find((category) => category.name === 'Marsupials');
    expect(listed?.subcategories).toEqual([{ name: 'Wombats', name_encoded: 'wombats' }]);

    const uploaded = await postUploads(
      testApp,
      ada,
      [{ name: 'wombat2.gif', bytes: await makeAnimation({ format: 'gif' }) }],
      { category: 'marsupials/wombats' },
    );
    expect(uploaded.statusCode).toBe(202);
    await waitForUploads(testApp, ada);

    const renamed = await request('PATCH', `/api/admin/categories/${parentId}`, admin, {
      name: 'Pouched',
    });
    expect((renamed.json() as ManagedCategoryResponse).category.path).toBe('Pouched');
    expect((await request('DELETE', `/api/admin/categories/${parentId}`, ada)).statusCode).toBe(
      403,
    );
    expect((await request('DELETE', `/api/admin/categories/${parentId}`, admin)).statusCode).toBe(
      200,
    );
    const all = await request('GET', '/api/categories', ada);
    expect(all.json().categories).toEqual([]);
    // The item stays, uncategorized.
    const item = await request('GET', `/api/items/${itemId}`, ada);
    expect(item.json().item.details.category).toBeNull();

    const actions = (await readAudit()).map((event) => [event.action, event.target]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['category.create', 'Marsupials'],
        ['category.create', 'Marsupials/Wombats'],
        ['category.rename', 'Pouched'],
        ['category.delete', 'Pouched'],
      ]),
    );
  });

  it('pages the audit list newest first, to admins only', async () => {
    expect((await request('GET', '/api/admin/audit', ada)).statusCode).toBe(403);
    const all = await readAudit();
    expect(all.length).toBeGreaterThan(3);
    const first = (
      await request('GET', '/api/admin/audit?limit=2', admin)
    ).json() as ListAuditResponse;
    expect(first.events.map((event) => event.id)).toEqual(all.slice(0, 2).map((event) => event.id));
    const second = (
      await request('GET', `/api/admin/audit?limit=2&cursor=${first.next}`, admin)
    ).json() as ListAuditResponse;
    expect(second.events.map((event) => event.id)).toEqual(
      all.slice(2, 4).map((event) => event.id),
    );
    const times = all.map((event) => Date.parse(event.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all[0]?.actorName).toBe('Admin (admin@example.com)');
    expect((await request('GET', '/api/admin/audit?cursor=zzz', admin)).statusCode).toBe(400);
  });
});
