import { e2eAdminEmail } from './support/api-key.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';
import { makeLabelledGif } from './support/media.ts';

const seed = (Date.now() % 1_000_000).toString(36);
/** A phrase nothing in the catalog matches, searched by two people: a miss the overview lists. */
const missedPhrase = `zzqxv${seed.replace(/\d/g, 'k')}`;

test.describe('admin overview', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('an admin opens Overview from /admin and sees today’s uploads, searches and misses', async ({
    browser,
    baseURL,
  }) => {
    test.slow();
    // Someone searches what the catalog lacks.
    const personPage = await (await browser.newContext({ baseURL })).newPage();
    await personPage.goto('/landing');
    await signInFromLanding(personPage, { name: 'Sam Searcher', email: uniqueEmail('overview') });
    await personPage.goto(`/search/${missedPhrase}`);
    await expect(personPage.getByText(`No Gifs found for ${missedPhrase}.`)).toBeVisible();

    // The admin uploads a GIF and searches the same phrase.
    const adminPage = await (await browser.newContext({ baseURL })).newPage();
    await adminPage.goto('/landing');
    await signInFromLanding(adminPage, { name: 'Ada Admin', email: e2eAdminEmail });
    const upload = await adminPage.request.post('/api/uploads', {
      multipart: {
        title: `Overview ${seed}`,
        file: {
          name: 'overview.gif',
          mimeType: 'image/gif',
          buffer: await makeLabelledGif(`overview ${seed}`),
        },
      },
    });
    expect(upload.status()).toBe(202);
    await adminPage.goto(`/search/${missedPhrase}`);
    await expect(adminPage.getByText(`No Gifs found for ${missedPhrase}.`)).toBeVisible();

    await adminPage.getByRole('button', { name: /^Account menu/ }).click();
    await adminPage.getByRole('menuitem', { name: 'Admin' }).click();
    await adminPage.getByRole('link', { name: 'Overview' }).click();
    await expect(adminPage).toHaveURL(/\/admin\/overview$/);
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

    // Search counts are written behind their answers: a reload may be needed to see them.
    const missed = adminPage.getByRole('region', { name: 'Searches that found nothing' });
    await expect(async () => {
      await adminPage.reload();
      await expect(missed.getByRole('listitem').filter({ hasText: missedPhrase })).toContainText(
        `${missedPhrase}2`,
        { timeout: 10_000 },
      );
    }).toPass({ timeout: 45_000 });

    // Today is each chart's last day, chosen at first: at least this upload and these searches.
    const uploads = adminPage.getByRole('slider', { name: 'Uploads per day: choose a day' });
    await expect(uploads).toHaveAttribute('aria-valuetext', /: [1-9][\d,]* uploads?$/);
    const searches = adminPage.getByRole('slider', { name: 'Searches per day: choose a day' });
    await expect(searches).toHaveAttribute('aria-valuetext', /: ([2-9]|[1-9][\d,]+) searches$/);
    await expect(adminPage.getByRole('region', { name: 'Health' })).toContainText('Database:OK');
    await expectNoSeriousAxeViolations(adminPage, 'the admin overview');

    // By keyboard: the chart moves a day back, and its numbers show as a table.
    await uploads.focus();
    await adminPage.keyboard.press('ArrowLeft');
    await expect(uploads).toHaveAttribute('aria-valuenow', '29');
    const toggle = adminPage.getByRole('button', { name: 'Show the numbers' }).first();
    await toggle.focus();
    await adminPage.keyboard.press('Enter');
    await expect(adminPage.getByRole('table', { name: 'Uploads per day, by day' })).toBeVisible();
    await expectNoSeriousAxeViolations(adminPage, 'the admin overview with a table shown');
  });
});
