import { e2eApiKey } from './support/api-key.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { makeLabelledGif } from './support/media.ts';

const seed = (Date.now() % 100_000) + 7;
const word = `viz${seed.toString(36)}`;
const title = `${word[0]!.toUpperCase()}${word.slice(1)} secret`;

test.describe('visibility', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('upload as unlisted, copy the link, open it as another person; made private, their link is 404 while its owner still opens it', async ({
    page,
    browser,
    baseURL,
  }) => {
    // Two people, an upload and several page loads: more than one quick journey's time.
    test.slow();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: baseURL,
    });
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Una Unlisted', email: uniqueEmail('unlisted') });
    await page.goto('/upload');
    await page.getByLabel('Choose files').setInputFiles({
      name: `${word}-secret.gif`,
      mimeType: 'image/gif',
      buffer: await makeLabelledGif(`visibility ${seed}`),
    });
    const choice = page.getByRole('group', { name: 'Who can see these files' });
    await expect(
      choice.getByRole('radio', { name: 'Everyone on this Sticky can find it' }),
    ).toBeChecked();
    await choice.getByRole('radio', { name: 'Only people you give the link to' }).check();
    await expectNoSeriousAxeViolations(page, 'the upload page with its visibility choice');
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const row = page
      .getByRole('list', { name: 'Files to upload' })
      .getByRole('listitem')
      .filter({ hasText: `${word}-secret.gif` });
    await expect(row.getByText('Ready', { exact: true })).toBeVisible({ timeout: 30_000 });

    // My uploads says who sees it; Copy link gives the link to share.
    await page.goto('/uploads');
    const mine = page
      .getByRole('list', { name: 'My uploads' })
      .getByRole('listitem')
      .filter({ hasText: title });
    const visibility = mine.getByRole('combobox', { name: `Who can see it (${title})` });
    await expect(visibility).toHaveValue('unlisted');
    await expectNoSeriousAxeViolations(page, 'my uploads with each item’s visibility');
    await mine.getByRole('button', { name: `Copy link of ${title}` }).click();
    await expect(page.getByText('Link Copied!')).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const itemId = new URL(link).pathname.split('/').pop()!.split('-').pop()!;
    expect(itemId).toMatch(/^[A-Za-z0-9]{10,}$/);

    // Another person opens the link: the page and its GIF work for them.
    const otherPage = await (await browser.newContext({ baseURL })).newPage();
    await otherPage.goto('/landing');
    await signInFromLanding(otherPage, { name: 'Lin Linked', email: uniqueEmail('linked') });
    await otherPage.goto(link);
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect
      .poll(() =>
        otherPage
          .locator('img, video')
          .first()
          .evaluate(
            (media) =>
              (media instanceof HTMLImageElement && media.naturalWidth > 0) ||
              (media instanceof HTMLVideoElement && media.readyState > 0),
          ),
      )
      .toBe(true);
    await expectNoSeriousAxeViolations(otherPage, 'an unlisted item’s page, for someone else');
    // But it is in nobody's search or trending.
    const search = await otherPage.request.get(
      `/v1/gifs/search?q=${word}&api_key=${e2eApiKey}&limit=50`,
    );
    expect(JSON.stringify(await search.json())).not.toContain(itemId);

    // The owner makes it private: the other person's link now answers 404.
    await visibility.selectOption('private');
    await expect(page.getByText('Now: only you')).toBeVisible();
    // What the item page asks for the item, each time it is opened.
    const itemAnswers: number[] = [];
    otherPage.on('response', (response) => {
      if (new URL(response.url()).pathname === `/v1/gifs/${itemId}`) {
        itemAnswers.push(response.status());
      }
    });
    await otherPage.goto(link);
    await expect.poll(() => itemAnswers.at(-1), { timeout: 20_000 }).toBe(404);
    await expect(otherPage.getByRole('heading', { level: 1, name: title })).toHaveCount(0);
    const media = await otherPage.request.get(
      (await page.evaluate(
        async (id) =>
          (
            (await (await fetch(`/api/uploads?limit=100`)).json()) as {
              uploads: Array<{ itemId: string | null; previewUrl: string | null }>;
            }
          ).uploads.find((upload) => upload.itemId === id)!.previewUrl!,
        itemId,
      ))!,
    );
    expect(media.status()).toBe(404);
    expect(media.headers()['cache-control']).toBe('no-store');

    // Its owner still opens its page from My uploads, told that only they see it; there is no
    // link to share. Opened by the other person after them, it is still 404.
    await expect(mine.getByRole('button', { name: `Copy link of ${title}` })).toHaveCount(0);
    await mine.getByRole('link', { name: title }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('Only you can see this')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Related Gifs' })).toHaveCount(0);
    const askedBefore = itemAnswers.length;
    await otherPage.reload();
    await expect.poll(() => itemAnswers.slice(askedBefore).at(-1), { timeout: 20_000 }).toBe(404);
    await expect(otherPage.getByRole('heading', { level: 1, name: title })).toHaveCount(0);
  });
});
