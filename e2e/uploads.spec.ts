import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import type { SharpOptions } from 'sharp';
import { e2eApiKey, e2eAdminEmail } from './support/api-key.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';

interface FileSpec {
  name: string;
  mimeType: string;
  base64: string;
}

/** A small animation of its own colours (`seed`), `size` px square, `frames` frames. */
async function makeGif(seed: number, size = 96, frames = 6): Promise<Buffer> {
  const raw = Buffer.alloc(size * size * frames * 4);
  for (let index = 0; index < raw.length; index += 4) {
    const pixel = index / 4;
    raw[index] = (seed * 53 + pixel) % 256;
    raw[index + 1] = (seed * 29 + Math.floor(pixel / size) * 3) % 256;
    raw[index + 2] = (seed * 17 + Math.floor(pixel / (size * size)) * 40) % 256;
    raw[index + 3] = 255;
  }
  return sharp(raw, {
    raw: { width: size, height: size * frames, channels: 4, pageHeight: size },
  } as SharpOptions)
    .gif({ loop: 0, delay: Array(frames).fill(80) })
    .toBuffer();
}

/** A still PNG whose left half is see-through (a sticker), of its own colours (`seed`). */
async function makeSeeThroughPng(seed: number, size = 64): Promise<Buffer> {
  const raw = Buffer.alloc(size * size * 4);
  for (let index = 0; index < raw.length; index += 4) {
    const pixel = index / 4;
    raw[index] = (seed * 31 + pixel) % 256;
    raw[index + 1] = (seed * 11 + Math.floor(pixel / size) * 5) % 256;
    raw[index + 2] = (seed * 7) % 256;
    raw[index + 3] = pixel % size < size / 2 ? 0 : 255;
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 4 } })
    .png()
    .toBuffer();
}

/** Drops files on the page as a person dragging them from their desktop does. */
async function dropFiles(page: Page, files: FileSpec[]) {
  const dataTransfer = await page.evaluateHandle((specs: FileSpec[]) => {
    const transfer = new DataTransfer();
    for (const spec of specs) {
      const bytes = Uint8Array.from(atob(spec.base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], spec.name, { type: spec.mimeType }));
    }
    return transfer;
  }, files);
  const target = page.getByRole('heading', { level: 1, name: 'Upload' });
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/**
 * Whether GIPHY's trending (`/v1/gifs/trending`) lists the item, on any page: every listable
 * item is in trending, a new one near the end (docs/catalog.md, "Trending").
 */
async function isInTrending(request: APIRequestContext, itemId: string): Promise<boolean> {
  const limit = 50;
  for (let offset = 0; ; offset += limit) {
    const response = await request.get(
      `/v1/gifs/trending?api_key=${e2eApiKey}&limit=${limit}&offset=${offset}`,
    );
    expect(response.status()).toBe(200);
    const body = (await response.json()) as {
      data: Array<{ id: string }>;
      pagination: { total_count: number };
    };
    if (body.data.some((item) => item.id === itemId)) return true;
    if (body.data.length < limit || offset + limit >= body.pagination.total_count) return false;
  }
}

const seed = Date.now() % 100_000;
const word = `zib${seed.toString(36)}`;

test.describe('uploads', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('drop three GIFs and a fake one, tag them, watch them upload and become items', async ({
    page,
  }) => {
    // A throttled upload, four files processed, an edit: more than one quick journey's time.
    test.slow();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Uma Uploader', email: uniqueEmail('upload') });
    await page.getByRole('link', { name: 'Upload', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the upload page');

    // A larger first file, so its progress can be seen under a throttled upload.
    const gifs = [await makeGif(seed, 320, 24), await makeGif(seed + 1), await makeGif(seed + 2)];
    await dropFiles(page, [
      ...gifs.map((bytes, index) => ({
        name: `${word}_${index + 1}.gif`,
        mimeType: 'image/gif',
        base64: bytes.toString('base64'),
      })),
      {
        name: 'sneaky.gif',
        mimeType: 'image/gif',
        base64: Buffer.from('<!doctype html><p>not a gif</p>').toString('base64'),
      },
    ]);
    const rows = page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem');
    await expect(rows).toHaveCount(4);
    // The browser cannot decode it: refused on the page, before anything is sent, and removed.
    const sneaky = rows.filter({ hasText: 'sneaky.gif' });
    await expect(sneaky.getByRole('alert')).toHaveText("sneaky.gif isn't an image");
    await sneaky.getByRole('button', { name: 'Remove sneaky.gif' }).click();
    await expect(rows).toHaveCount(3);
    const first = rows.filter({ hasText: `${word}_1.gif` });
    // The title is proposed from the file name.
    await expect(first.getByLabel('Title')).toHaveValue(
      `${word[0]!.toUpperCase()}${word.slice(1)} 1`,
    );
    await expectNoSeriousAxeViolations(page, 'the upload page with files');

    // Tags as chips, then the same tags for every file.
    const tags = first.getByLabel('Tags', { exact: true });
    await tags.fill('party');
    await tags.press('Enter');
    await tags.fill(word);
    await tags.press('Enter');
    await expect(first.getByRole('button', { name: 'Remove tag party' })).toBeVisible();
    await first.getByRole('button', { name: 'Apply tags, category and rating to all' }).click();
    await expect(
      rows.filter({ hasText: `${word}_3.gif` }).getByRole('button', { name: `Remove tag ${word}` }),
    ).toBeVisible();

    // Throttled, the bytes going out can be watched.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    await page.getByRole('button', { name: 'Upload 3 files' }).click();
    await expect(first.getByRole('progressbar', { name: `Sending ${word}_1.gif` })).toBeVisible();
    await expect(first.getByText(/^Sending [\d.]+ KB of [\d.]+ KB$/)).toBeVisible();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    for (let index = 1; index <= 3; index += 1) {
      const row = rows.filter({ hasText: `${word}_${index}.gif` });
      await expect(row.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });
    }
    await expectNoSeriousAxeViolations(page, 'the upload page, done');

    // They are items now: GIPHY's API finds them by their tag.
    const search = await page.request.get(
      `/v1/gifs/search?q=${word}&api_key=${e2eApiKey}&limit=10`,
    );
    const found = ((await search.json()) as { data: Array<{ title: string }> }).data;
    expect(found.map((item) => item.title).sort()).toEqual(
      [1, 2, 3].map((n) => `${word[0]!.toUpperCase()}${word.slice(1)} ${n}`),
    );

    // My uploads: edit one's tags after the fact.
    await page.goto('/uploads');
    const list = page.getByRole('list', { name: 'My uploads' });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expectNoSeriousAxeViolations(page, 'my uploads');
    await list
      .getByRole('button', { name: `Edit ${word[0]!.toUpperCase()}${word.slice(1)} 2` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit item' });
    await dialog.getByLabel('Tags', { exact: true }).fill('afterwards');
    await dialog.getByLabel('Tags', { exact: true }).press('Enter');
    await expectNoSeriousAxeViolations(page, 'the edit dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const edited = await page.request.get(
      `/v1/gifs/search?q=afterwards&api_key=${e2eApiKey}&limit=10`,
    );
    // The item tagged so, first; synonyms' matches may follow it (docs/catalog.md, "Synonyms and
    // emoji").
    const afterwards = ((await edited.json()) as { data: Array<{ title: string; tags: string[] }> })
      .data;
    expect(afterwards[0]?.title).toBe(`${word[0]!.toUpperCase()}${word.slice(1)} 2`);
    expect(afterwards.filter((item) => item.tags.includes('afterwards'))).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  test('shows still previews to people who asked for reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Calm Person', email: uniqueEmail('calm') });
    await page.goto('/upload');
    await dropFiles(page, [
      {
        name: 'calm.gif',
        mimeType: 'image/gif',
        base64: (await makeGif(seed + 11, 320, 4)).toString('base64'),
      },
    ]);
    const preview = page.getByRole('img', { name: 'Preview of calm.gif' });
    await expect(preview).toBeVisible();
    // Not the GIF (320 px, animated) but its first frame, drawn as a still at 256 px at most.
    await expect
      .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(256);
    // Without the preference, the animation itself.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect
      .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(320);
  });

  test('an admin hides an upload: gone at once; a non-owner may not edit it', async ({
    browser,
    baseURL,
  }) => {
    // Several people, uploads and page loads: more than one quick journey's time.
    test.slow();
    const ownerPage = await (await browser.newContext({ baseURL })).newPage();
    await ownerPage.goto('/landing');
    await signInFromLanding(ownerPage, { name: 'Olive Owner', email: uniqueEmail('owner') });
    const form = ownerPage.request;
    const upload = await form.post('/api/uploads', {
      multipart: {
        title: `Hideable ${word}`,
        file: { name: 'hide-me.gif', mimeType: 'image/gif', buffer: await makeGif(seed + 7) },
      },
    });
    expect(upload.status()).toBe(202);
    const receipt = ((await upload.json()) as { uploads: Array<{ uploadId: string }> }).uploads[0]!;
    await expect
      .poll(
        async () => {
          const mine = (await (await form.get('/api/uploads')).json()) as {
            uploads: Array<{ id: string; state: string; itemId: string | null }>;
          };
          return mine.uploads.find((entry) => entry.id === receipt.uploadId)?.state;
        },
        { timeout: 30_000 },
      )
      .toBe('ready');
    const mine = (await (await form.get('/api/uploads')).json()) as {
      uploads: Array<{ id: string; itemId: string }>;
    };
    const itemId = mine.uploads.find((entry) => entry.id === receipt.uploadId)!.itemId;

    // The owner sees Edit and Delete on the item page.
    await ownerPage.goto(`/gif/${itemId}`);
    await expect(ownerPage.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(ownerPage.getByRole('button', { name: 'Delete' })).toBeVisible();
    await expectNoSeriousAxeViolations(ownerPage, 'the item page, for its owner');

    // Someone else sees neither, and the API refuses them.
    const otherPage = await (await browser.newContext({ baseURL })).newPage();
    await otherPage.goto('/landing');
    await signInFromLanding(otherPage, { name: 'Nosy Neighbour', email: uniqueEmail('other') });
    await otherPage.goto(`/gif/${itemId}`);
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(`Hideable ${word}`);
    await expect(otherPage.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    const patch = await otherPage.request.patch(`/api/items/${itemId}`, {
      data: { title: 'Mine now' },
    });
    expect(patch.status()).toBe(403);
    const remove = await otherPage.request.delete(`/api/items/${itemId}`);
    expect(remove.status()).toBe(403);

    // Before it is hidden, everyone finds it: /v1 trending, and the web app's search grid.
    const adminPage = await (await browser.newContext({ baseURL })).newPage();
    await adminPage.goto('/landing');
    await signInFromLanding(adminPage, { name: 'Ada Admin', email: e2eAdminEmail });
    await expect.poll(() => isInTrending(adminPage.request, itemId)).toBe(true);
    const searchPath = `/search/${encodeURIComponent(`hideable ${word}`)}`;
    const searchGrid = otherPage.getByRole('list', { name: `Results for hideable ${word}` });
    await otherPage.goto(searchPath);
    await expect(searchGrid.locator(`a[href*="${itemId}"]`)).toHaveCount(1);

    // The admin hides it from /admin.
    await adminPage.getByRole('button', { name: /^Account menu/ }).click();
    await adminPage.getByRole('menuitem', { name: 'Admin' }).click();
    const recent = adminPage.getByRole('list', { name: 'Recent uploads' });
    const row = recent.getByRole('listitem').filter({ hasText: `Hideable ${word}` });
    await expect(row).toContainText('Olive Owner');
    await expectNoSeriousAxeViolations(adminPage, 'the admin page');
    await row.getByRole('button', { name: `Hide Hideable ${word}` }).click();
    await expect(row.getByText('Hidden', { exact: true })).toBeVisible();

    // Gone for everyone else; its owner and admins still open it, never from a shared cache
    // (docs/uploads.md, "Visibility").
    const byId = await otherPage.request.get(`/v1/gifs/${itemId}?api_key=${e2eApiKey}`);
    expect(byId.status()).toBe(404);
    const byIdForAdmin = await adminPage.request.get(`/v1/gifs/${itemId}`);
    expect(byIdForAdmin.status()).toBe(200);
    expect(byIdForAdmin.headers()['cache-control']).toBe('private, no-store');
    const search = await adminPage.request.get(
      `/v1/gifs/search?q=hideable ${word}&api_key=${e2eApiKey}`,
    );
    expect(((await search.json()) as { data: unknown[] }).data).toEqual([]);
    expect(await isInTrending(adminPage.request, itemId)).toBe(false);
    // A fresh visit to the search page: the grid had only this item, now it finds nothing.
    await otherPage.goto(searchPath);
    await expect(otherPage.getByText(`No Gifs found for hideable ${word}.`)).toBeVisible();
    await expect(otherPage.locator(`a[href*="${itemId}"]`)).toHaveCount(0);
  });

  test('choose files and paste: a see-through PNG is proposed as a sticker, Ready leads to its item, and the same file again is already in Sticky', async ({
    page,
    browser,
    baseURL,
  }) => {
    // Several people, uploads and page loads: more than one quick journey's time.
    test.slow();
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Pia Picker', email: uniqueEmail('picker') });
    await page.goto('/upload');
    const seeThrough = await makeSeeThroughPng(seed + 21);
    await page.getByLabel('Choose files').setInputFiles([
      { name: `${word}-clear.png`, mimeType: 'image/png', buffer: seeThrough },
      { name: `${word}-solid.gif`, mimeType: 'image/gif', buffer: await makeGif(seed + 22) },
    ]);
    const rows = page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    const clearRow = rows.filter({ hasText: `${word}-clear.png` });
    // Read from its first frame in the browser: a transparent pixel makes it a sticker.
    await expect(clearRow.getByLabel('Type')).toHaveValue('sticker');
    await expect(rows.filter({ hasText: `${word}-solid.gif` }).getByLabel('Type')).toHaveValue(
      'gif',
    );

    // A pasted image (a copied GIF, a screenshot) gets a row of its own.
    await page.evaluate(
      (base64) => {
        const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'pasted.gif', { type: 'image/gif' }));
        document.body.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true }),
        );
      },
      (await makeGif(seed + 23)).toString('base64'),
    );
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'pasted.gif' }).getByLabel('Title')).toHaveValue('Pasted');

    await page.getByRole('button', { name: 'Upload 3 files' }).click();
    for (const name of [`${word}-clear.png`, `${word}-solid.gif`, 'pasted.gif']) {
      await expect(rows.filter({ hasText: name }).getByText('Ready', { exact: true })).toBeVisible({
        timeout: 30_000,
      });
    }
    const clearTitle = `${word[0]!.toUpperCase()}${word.slice(1)} clear`;
    await clearRow.getByRole('link', { name: `Open ${clearTitle}` }).click();
    await expect(page).toHaveURL(/\/sticker\//);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(clearTitle);

    // Someone else sends the same bytes under another name: the row says the file is already
    // in Sticky, leads to the item under its own title, and offers no Edit (it is not theirs).
    const otherPage = await (await browser.newContext({ baseURL })).newPage();
    await otherPage.goto('/landing');
    await signInFromLanding(otherPage, { name: 'Dee Duplicate', email: uniqueEmail('dup') });
    await otherPage.goto('/upload');
    await otherPage
      .getByLabel('Choose files')
      .setInputFiles({ name: 'my-copy.png', mimeType: 'image/png', buffer: seeThrough });
    await otherPage.getByRole('button', { name: 'Upload 1 file' }).click();
    const copyRow = otherPage.getByRole('listitem', { name: 'my-copy.png' });
    await expect(copyRow.getByRole('link', { name: `Open ${clearTitle}` })).toBeVisible();
    await expect(copyRow.getByText('Already in Sticky')).toBeVisible();
    await expect(copyRow.getByText('Ready', { exact: true })).toHaveCount(0);
    await expect(copyRow.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
    await expectNoSeriousAxeViolations(otherPage, 'the upload page with a duplicate');
    await copyRow.getByRole('link', { name: `Open ${clearTitle}` }).click();
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(clearTitle);
  });
});
