import { test as base, expect } from '@playwright/test';
import { startFakeGiphy } from './support/fake-giphy.ts';
import type { FakeGiphy } from './support/fake-giphy.ts';
import { journeyWidths, runJourney, uniqueEmail } from './support/journey.ts';
import { startStickyServer } from './support/server.ts';
import type { StickyServer } from './support/server.ts';

/**
 * The same journey with GIPHY as the content source: the browser calls a local fake GIPHY
 * (serving the recorded responses in fixtures/giphy) directly with the public key, as in
 * production.
 */
const test = base.extend<object, { giphy: { fake: FakeGiphy; sticky: StickyServer } }>({
  giphy: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const fake = await startFakeGiphy();
      const sticky = await startStickyServer({
        GIPHY_API_KEY: 'test-key',
        GIPHY_API_URL: `${fake.url}/v1`,
        SEED_STARTER_CATALOG: 'false',
      });
      await use({ fake, sticky });
      await sticky.stop();
      await fake.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

for (const width of journeyWidths) {
  test.describe(`GIPHY mode at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, acceptDownloads: true });

    test('the whole journey against GIPHY, Powered by GIPHY', async ({ page, giphy }) => {
      test.setTimeout(180_000);
      const { fake, sticky } = giphy;
      const requestsBefore = fake.requests.length;
      await runJourney(page, {
        baseUrl: sticky.url,
        width,
        user: { name: `Giphy ${width}`, email: uniqueEmail(`giphy-${width}`) },
        searchTerm: 'cat',
        emptySearchTerm: 'zzqxvjwk',
        // The fake's Text tab serves GIFs: only the requests are checked.
        hasTypedItems: false,
        getOriginalUrl: async (_page, id) => {
          const all = [...fake.items.gifs, ...fake.items.stickers];
          const item = all.find((candidate) => String(candidate.id) === id);
          return (item!.images as { original: { url: string } }).original.url;
        },
        onHome: async (journeyPage) => {
          await expect(journeyPage.getByText('Powered by GIPHY')).toBeVisible();
        },
      });
      const seen = fake.requests.slice(requestsBefore);
      expect(seen.every((request) => request.query.api_key === 'test-key')).toBe(true);
      for (const type of ['gifs', 'stickers', 'text']) {
        expect(seen).toContainEqual({
          path: `${type}/trending`,
          query: expect.objectContaining({ limit: '25', rating: 'g' }),
        });
      }
      expect(seen).toContainEqual({
        path: 'gifs/search',
        query: expect.objectContaining({ q: 'cat', lang: 'en', sort: 'relevant', rating: 'pg-13' }),
      });
      expect(seen).toContainEqual({
        path: 'gifs/related',
        query: expect.objectContaining({ limit: '15' }),
      });
      expect(seen.some((request) => request.path === 'gifs' && request.query.ids)).toBe(true);
    });
  });
}
