import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page, Request } from '@playwright/test';
import { e2eApiKey } from './support/api-key.ts';
import { expect, test as base } from './support/fixtures.ts';
import { waitForStarterCatalog } from './support/server.ts';

/**
 * An app written for Tenor's API, unchanged: gif-picker-react (a Tenor v2 GIF picker from npm)
 * on a chat app's page, its fixed Tenor host answered by our `/v2` (docs/api.md, "/v2 (Tenor)").
 */
const test = base.extend<object, { catalogReady: true; chatAppUrl: string }>({
  catalogReady: [
    async ({ stickyUrl }, use) => {
      await waitForStarterCatalog(stickyUrl);
      await use(true);
    },
    { scope: 'worker', timeout: 16 * 60_000 },
  ],
  chatAppUrl: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const result = await build({
        stdin: {
          contents: `
            import { createElement, StrictMode } from 'react';
            import { createRoot } from 'react-dom/client';
            import GifPicker from 'gif-picker-react';
            window.picked = [];
            createRoot(document.getElementById('root')).render(
              createElement(StrictMode, null, createElement(GifPicker, {
                tenorApiKey: ${JSON.stringify(e2eApiKey)},
                clientKey: 'chat-example',
                onGifClick: (gif) => window.picked.push(gif),
              })),
            );`,
          resolveDir: fileURLToPath(new URL('..', import.meta.url)),
          loader: 'jsx',
        },
        bundle: true,
        write: false,
        format: 'iife',
        minify: true,
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'silent',
      });
      const script = result.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
      const html = `<!doctype html><html lang="en"><head><title>Chat</title></head><body><div id="root"></div><script>${script}</script></body></html>`;
      // Another origin on loopback, as a chat app next to Sticky: Chromium lets a public
      // page load nothing from loopback, so the page is served for real, not routed.
      const chatApp = http.createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      });
      await new Promise<void>((resolve) => chatApp.listen(0, '127.0.0.1', resolve));
      await use(`http://127.0.0.1:${(chatApp.address() as AddressInfo).port}/`);
      await new Promise<void>((resolve) => chatApp.close(() => resolve()));
    },
    { scope: 'worker' },
  ],
});

/** Tenor's host, answered by Sticky's `/v2` (paths and query as the client sent them). */
async function answerTenorWithSticky(page: Page, stickyUrl: string) {
  await page.route('https://tenor.googleapis.com/v2/**', async (route) => {
    const asked = new URL(route.request().url());
    const response = await route.fetch({ url: `${stickyUrl}${asked.pathname}${asked.search}` });
    await route.fulfill({ response });
  });
}

function isTenorCall(request: Request, endpoint: string): boolean {
  return request.url().startsWith(`https://tenor.googleapis.com/v2/${endpoint}?`);
}

test('a Tenor GIF picker lists featured and categories, searches and registers a share', async ({
  page,
  stickyUrl,
  catalogReady,
  chatAppUrl,
}) => {
  expect(catalogReady).toBe(true);
  const answers: Array<{ url: string; status: number }> = [];
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.url().startsWith('https://tenor.googleapis.com/')) {
      answers.push({ url: response.url(), status: response.status() });
    }
  });
  const featured = page.waitForResponse((response) => isTenorCall(response.request(), 'featured'));
  const categories = page.waitForResponse((response) =>
    isTenorCall(response.request(), 'categories'),
  );
  await answerTenorWithSticky(page, stickyUrl);
  await page.goto(chatAppUrl);

  // Categories, with "Trending GIFs" first (its picture from featured), each with Sticky's media.
  const categoryList = await (await categories).json();
  expect(categoryList.tags.length).toBeGreaterThan(0);
  expect((await (await featured).json()).results.length).toBeGreaterThan(0);
  await expect(page.getByText('Trending GIFs')).toBeVisible();
  const firstCategory = categoryList.tags[0].searchterm as string;
  await expect(page.getByText(firstCategory, { exact: true })).toBeVisible();
  const categoryImages = page.locator('.gpr-category-list img');
  await expect(categoryImages.first()).toHaveAttribute('src', new RegExp(`^${stickyUrl}/media/`));

  // A search shows GIFs whose pictures load from Sticky.
  const searched = page.waitForResponse((response) => isTenorCall(response.request(), 'search'));
  await page.getByPlaceholder(/search/i).fill('cat');
  const searchAnswer = await (await searched).json();
  expect(searchAnswer.results.length).toBeGreaterThan(0);
  const gifs = page.locator('.gpr-result-image img');
  await expect(gifs.first()).toBeVisible();
  await expect(gifs.first()).toHaveAttribute('src', new RegExp(`^${stickyUrl}/media/`));
  // Loaded, not only named: the picture decodes once its bytes are in (slower on a busy machine).
  await expect
    .poll(() =>
      gifs.first().evaluate((image: HTMLImageElement) => (image.complete ? image.naturalWidth : 0)),
    )
    .toBeGreaterThan(0);

  // Picking one hands the app Sticky's item and registers the share with Sticky.
  const shared = page.waitForResponse((response) =>
    isTenorCall(response.request(), 'registershare'),
  );
  await gifs.first().click();
  const share = await shared;
  expect(share.status()).toBe(200);
  const picked = await page.evaluate(
    () =>
      (window as unknown as { picked: Array<{ id: string; url: string; tenorUrl: string }> })
        .picked,
  );
  expect(picked).toHaveLength(1);
  expect(new URL(share.url()).searchParams.get('id')).toBe(picked[0]!.id);
  expect(picked[0]!.url).toMatch(new RegExp(`^${stickyUrl}/media/`));
  expect(picked[0]!.tenorUrl).toMatch(new RegExp(`^${stickyUrl}/`));
  expect(searchAnswer.results.map((result: { id: string }) => result.id)).toContain(picked[0]!.id);

  // Every call the picker made was answered, none refused, and nothing failed on the page.
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  expect(problems).toEqual([]);
});
