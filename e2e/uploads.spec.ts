import type { Page } from '@playwright/test';
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

const seed = Date.now() % 100_000;
const word = `zib${seed.toString(36)}`;

test.describe('uploads', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('drop three GIFs and a fake one, tag them, watch them upload and become items', async ({
    page,
  }) => {
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
    await page.getByRole('button', { name: 'Upload 4 files' }).click();
    await expect(first.getByRole('progressbar', { name: `Sending ${word}_1.gif` })).toBeVisible();
    await expect(first.getByText(/^Sending [\d.]+ KB of [\d.]+ KB$/)).toBeVisible();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    await expect(rows.filter({ hasText: 'sneaky.gif' }).getByRole('alert')).toHaveText(
      'sneaky.gif is not a GIF, WebP, PNG or JPEG image (it is HTML or XML).',
    );
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
    expect(((await edited.json()) as { data: unknown[] }).data).toHaveLength(1);
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
      .poll(async () => {
        const mine = (await (await form.get('/api/uploads')).json()) as {
          uploads: Array<{ id: string; state: string; itemId: string | null }>;
        };
        return mine.uploads.find((entry) => entry.id === receipt.uploadId)?.state;
      })
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

    // The admin hides it from /admin.
    const adminPage = await (await browser.newContext({ baseURL })).newPage();
    await adminPage.goto('/landing');
    await signInFromLanding(adminPage, { name: 'Ada Admin', email: e2eAdminEmail });
    await adminPage.getByRole('button', { name: /^Account menu/ }).click();
    await adminPage.getByRole('menuitem', { name: 'Admin' }).click();
    const recent = adminPage.getByRole('list', { name: 'Recent uploads' });
    const row = recent.getByRole('listitem').filter({ hasText: `Hideable ${word}` });
    await expect(row).toContainText('Olive Owner');
    await expectNoSeriousAxeViolations(adminPage, 'the admin page');
    await row.getByRole('button', { name: `Hide Hideable ${word}` }).click();
    await expect(row.getByText('Hidden', { exact: true })).toBeVisible();

    const byId = await adminPage.request.get(`/v1/gifs/${itemId}?api_key=${e2eApiKey}`);
    expect(byId.status()).toBe(404);
    const search = await adminPage.request.get(
      `/v1/gifs/search?q=hideable ${word}&api_key=${e2eApiKey}`,
    );
    expect(((await search.json()) as { data: unknown[] }).data).toEqual([]);
  });

  test('a token made in Settings uploads like curl, and its link leads to the item', async ({
    page,
    playwright,
    baseURL,
  }) => {
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Tom Token', email: uniqueEmail('token') });
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await page.getByLabel('Token name').fill('My script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page
      .locator('code')
      .filter({ hasText: /^sticky_/ })
      .textContent())!;
    expect(secret).toMatch(/^sticky_/);
    await expect(page.getByText(`curl -H "Authorization: Bearer ${secret}"`)).toBeVisible();
    await expect(page.getByText('"RequestURL":')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'settings with a new token');

    // A client with no cookie and no browser: only the token.
    const script = await playwright.request.newContext({ baseURL });
    const response = await script.post('/api/uploads', {
      headers: { authorization: `Bearer ${secret}` },
      multipart: {
        tags: 'scripted',
        file: { name: 'scripted.gif', mimeType: 'image/gif', buffer: await makeGif(seed + 9) },
      },
    });
    expect(response.status()).toBe(202);
    const { uploads } = (await response.json()) as { uploads: Array<{ url: string }> };
    await expect
      .poll(async () => (await script.get(uploads[0]!.url, { maxRedirects: 0 })).status())
      .toBe(302);
    const followed = await page.goto(uploads[0]!.url);
    expect(followed?.ok()).toBe(true);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scripted');
    await script.dispose();
  });
});
