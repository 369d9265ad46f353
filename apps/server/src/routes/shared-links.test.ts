import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { items, uploads } from '../db/schema.ts';
import { createTestApp, readChangedVersions } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems } from '../test-support/catalog-fixtures.ts';

const publicUrl = 'https://sticky.example';
const browser = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36',
};
const slack = {
  'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  accept: '*/*',
};

function makeDist(): string {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-dist-'));
  fs.writeFileSync(
    path.join(distDir, 'index.html'),
    '<!doctype html><html><head><title>Sticky</title></head><body><div id="root"></div></body></html>',
  );
  return distDir;
}

async function insertUpload(testApp: TestApp, itemId: string | null): Promise<string> {
  const id = randomUUID();
  await testApp.database.db.insert(uploads).values({
    id,
    itemId,
    state: itemId ? 'ready' : 'processing',
    fileName: 'shared.gif',
    bytes: 10,
    sha256: id.replace(/-/g, ''),
    metadata: {},
  });
  return id;
}

/** Shared links: `/u/{id}`, `/api/links/{id}` and `/api/shared/{id}` (docs/uploads.md, "Links"). */
describe.each([
  { publicLinks: false, env: {} as Record<string, string> },
  { publicLinks: true, env: { PUBLIC_LINKS: 'true' } },
])('shared links, PUBLIC_LINKS=$publicLinks', ({ publicLinks, env }) => {
  let testApp: TestApp;
  let distDir: string;
  let publicId: string;
  let unlistedId: string;
  let privateId: string;
  let hiddenId: string;

  beforeAll(async () => {
    distDir = makeDist();
    testApp = await createTestApp({ PUBLIC_URL: publicUrl, ...env }, { webDistDir: distDir });
    [publicId, unlistedId, privateId, hiddenId] = (await insertCatalogItems(testApp.database, [
      { title: 'Out in the open' },
      { title: 'Shared by link' },
      { title: 'Kept to myself' },
      { title: 'Taken down' },
    ])) as [string, string, string, string];
    await testApp.database.db
      .update(items)
      .set({ visibility: 'unlisted', isIndexable: false })
      .where(eq(items.id, unlistedId));
    await testApp.database.db
      .update(items)
      .set({ visibility: 'private', isIndexable: false })
      .where(eq(items.id, privateId));
    await testApp.database.db
      .update(items)
      .set({ hiddenAt: new Date(), isIndexable: false })
      .where(eq(items.id, hiddenId));
    await readChangedVersions(testApp);
  });
  afterAll(async () => {
    await testApp?.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('tells the app whether links are public', async () => {
    const config = await testApp.app.inject({ url: '/api/config' });
    expect(config.json()).toMatchObject({ source: 'local', publicLinks });
  });

  it('shows a public or unlisted item to anyone only with PUBLIC_LINKS, never a private or hidden one', async () => {
    for (const id of [publicId, unlistedId]) {
      const response = await testApp.app.inject({ url: `/api/shared/${id}` });
      if (publicLinks) {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ success: true, item: { id } });
      } else {
        expect(response.statusCode).toBe(404);
      }
    }
    for (const id of [privateId, hiddenId, 'NoSuchItem1']) {
      const response = await testApp.app.inject({ url: `/api/shared/${id}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await testApp.app.inject({ url: '/api/shared/not%20an%20id' })).statusCode).toBe(400);
  });

  it('gives a browser the app while an upload is processing, and says where the link stands', async () => {
    const uploadId = await insertUpload(testApp, null);
    const page = await testApp.app.inject({ url: `/u/${uploadId}`, headers: browser });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    const state = await testApp.app.inject({ url: `/api/links/${uploadId}` });
    expect(state.json()).toEqual({ success: true, state: 'processing' });

    await testApp.database.db
      .update(uploads)
      .set({ state: 'ready', itemId: publicId })
      .where(eq(uploads.id, uploadId));
    const ready = await testApp.app.inject({ url: `/api/links/${uploadId}` });
    expect(ready.json()).toEqual({
      success: true,
      state: 'ready',
      path: expect.stringMatching(new RegExp(`^/gif/.*${publicId}$`)),
    });
    const gone = await testApp.app.inject({ url: `/api/links/${randomUUID()}` });
    expect(gone.statusCode).toBe(404);
  });

  it("holds a crawler's request while the upload is made, then sends it to the item", async () => {
    const uploadId = await insertUpload(testApp, null);
    // drizzle's builders run when awaited: `then` starts this one.
    setTimeout(() => {
      void testApp.database.db
        .update(uploads)
        .set({ state: 'ready', itemId: publicId })
        .where(eq(uploads.id, uploadId))
        .then(() => undefined);
    }, 600);
    const started = Date.now();
    const response = await testApp.app.inject({ url: `/u/${uploadId}`, headers: slack });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(new RegExp(`^${publicUrl}/gif/.*${publicId}$`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);

    const item = await testApp.app.inject({
      url: new URL(response.headers.location as string).pathname,
      headers: slack,
    });
    expect(item.statusCode).toBe(200);
    expect(item.body).toContain('<title>Out in the open · Sticky</title>');
  });
});
