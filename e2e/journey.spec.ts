import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test as base } from './support/fixtures.ts';
import {
  gridLinks,
  journeyWidths,
  runJourney,
  signInFromLanding,
  uniqueEmail,
} from './support/journey.ts';
import { waitForStarterCatalog } from './support/server.ts';

/** The shared server seeds its starter catalog behind the running server: wait for it once. */
const test = base.extend<object, { catalogReady: true }>({
  catalogReady: [
    async ({ stickyUrl }, use) => {
      await waitForStarterCatalog(stickyUrl);
      await use(true);
    },
    { scope: 'worker', timeout: 16 * 60_000 },
  ],
});

/** The spec's whole journey on our own catalog (the shared server's starter catalog). */
for (const width of journeyWidths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, acceptDownloads: true });

    test('the whole journey, with no serious accessibility violation', async ({
      page,
      baseURL,
      catalogReady,
    }) => {
      expect(catalogReady).toBe(true);
      test.setTimeout(180_000);
      await runJourney(page, {
        baseUrl: baseURL!,
        width,
        user: { name: `Journey ${width}`, email: uniqueEmail(`journey-${width}`) },
        searchTerm: 'birthday',
        emptySearchTerm: 'zzqxvjwk',
        hasTypedItems: true,
        getOriginalUrl: async (journeyPage, id) => {
          const response = await journeyPage.request.get(`${baseURL}/v1/gifs/${id}?api_key=e2e`);
          expect(response.ok()).toBe(true);
          const body = (await response.json()) as {
            data: { images: { original: { url: string } } };
          };
          return new URL(body.data.images.original.url, baseURL).href;
        },
        onHome: async (journeyPage) => {
          await expect(journeyPage.getByText('Powered by GIPHY')).toHaveCount(0);
        },
      });
    });
  });
}

/**
 * The home page's reactions strip (issue 46): between the banner and Trending, one row that
 * scrolls sideways on a phone without widening the page, reached by keyboard with a visible
 * focus, each chip its search.
 */
for (const width of [375, 1280] as const) {
  test(`the reactions strip at ${width} px: reachable by keyboard, a chip opens its search`, async ({
    page,
    baseURL,
    catalogReady,
  }) => {
    expect(catalogReady).toBe(true);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseURL}/landing`);
    await signInFromLanding(page, {
      name: `Reactions ${width}`,
      email: uniqueEmail(`reactions-${width}`),
    });
    const strip = page.getByRole('navigation', { name: 'Reactions' });
    await expect(strip).toBeVisible();
    const [bannerBox, stripBox, headingBox] = await Promise.all([
      page.getByRole('img', { name: /^Sticky: / }).boundingBox(),
      strip.boundingBox(),
      page.getByRole('heading', { name: 'Trending' }).boundingBox(),
    ]);
    expect(stripBox!.y).toBeGreaterThanOrEqual(bannerBox!.y + bannerBox!.height);
    expect(headingBox!.y).toBeGreaterThanOrEqual(stripBox!.y + stripBox!.height);
    const widths = await strip.getByRole('list').evaluate((list) => ({
      scroll: list.scrollWidth,
      client: list.clientWidth,
      page: document.documentElement.scrollWidth,
    }));
    // The page never scrolls sideways; on a phone, the strip does.
    expect(widths.page).toBeLessThanOrEqual(width);
    if (width === 375) expect(widths.scroll).toBeGreaterThan(widths.client);
    await expect(gridLinks(page, 'Trending').first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'home with reactions');

    // Keyboard: Tab reaches the first chip, which shows its focus.
    const first = strip.getByRole('link').first();
    for (let press = 0; press < 40; press += 1) {
      await page.keyboard.press('Tab');
      if (await first.evaluate((link) => link === document.activeElement)) break;
    }
    await expect(first).toBeFocused();
    expect(await first.evaluate((link) => getComputedStyle(link).outlineStyle)).not.toBe('none');
    const last = strip.getByRole('link').last();
    await last.focus();
    await expect(last).toBeInViewport();

    await strip.getByRole('link', { name: 'laugh', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/search/laugh');
    await expect(page.getByRole('heading', { level: 1, name: 'laugh' })).toBeVisible();
    await expect(gridLinks(page, 'Results for laugh').first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'search from a reaction');
  });
}
