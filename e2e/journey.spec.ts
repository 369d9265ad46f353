import { expect, test as base } from './support/fixtures.ts';
import { journeyWidths, runJourney, uniqueEmail } from './support/journey.ts';
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
