import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { startStickyServer } from './support/server.ts';

const widths = [375, 768, 1280] as const;

async function expectFeatureImagesLoaded(page: Page) {
  const images = page.locator('img[src^="/landing/"]');
  await expect(images).toHaveCount(5);
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth))
      .toBeGreaterThan(0);
  }
}

for (const width of widths) {
  test(`the landing page at ${width} px: content, own media only, no CSP errors, axe-clean`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: 860 });
    const origin = new URL(baseURL!).origin;
    // Any cookie of this site: the page-view call must not carry it.
    await page.context().addCookies([{ name: 'probe', value: '1', url: origin }]);
    const foreignRequests: string[] = [];
    const cspErrors: string[] = [];
    const pageErrors: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== origin) foreignRequests.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const pageView = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/analytics/pageview') &&
        response.request().method() === 'POST',
    );

    const response = await page.goto('/landing');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Sticky/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Say it with a GIF.');
    await expect(page.getByRole('button', { name: 'Get started for free' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 })).toHaveText([
      'Search trending GIFs',
      'Save your favorites',
      'Share with friends',
      'Download GIFs',
    ]);
    await expect(page.getByRole('heading', { name: 'Connect With Us' })).toBeVisible();
    await expectFeatureImagesLoaded(page);

    const view = await pageView;
    expect(view.status()).toBe(204);
    expect(view.request().postDataJSON()).toEqual({ path: '/landing' });
    expect(await view.request().headerValue('cookie')).toBeNull();

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await expectNoSeriousAxeViolations(page, `landing at ${width}`);
    expect(foreignRequests).toEqual([]);
    expect(cspErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
}

for (const image of ['hero', 'search', 'favorites', 'share', 'download']) {
  test(`/landing/${image}.svg animates, and stands still for prefers-reduced-motion`, async ({
    page,
  }) => {
    const countRunning = () =>
      page.evaluate(
        () =>
          document.getAnimations().filter((animation) => animation.playState === 'running').length,
      );
    const response = await page.goto(`/landing/${image}.svg`);
    expect(response?.headers()['content-type']).toContain('image/svg+xml');
    expect(await countRunning()).toBeGreaterThan(0);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(countRunning).toBe(0);
  });
}

test('loads the configured analytics script on the landing page', async ({ browser }) => {
  const scriptServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end("document.documentElement.dataset.analytics = 'loaded';");
  });
  await new Promise<void>((resolve) => scriptServer.listen(0, '127.0.0.1', resolve));
  const scriptUrl = `http://127.0.0.1:${(scriptServer.address() as AddressInfo).port}/a.js`;
  const sticky = await startStickyServer({ ANALYTICS_SCRIPT_URL: scriptUrl });
  const page = await browser.newPage();
  try {
    await page.goto(`${sticky.url}/landing`);
    await expect(page.locator('html')).toHaveAttribute('data-analytics', 'loaded');
    await expect(page.locator(`script[src="${scriptUrl}"]`)).toHaveCount(1);
  } finally {
    await page.close();
    await sticky.stop();
    fs.rmSync(sticky.dataDir, { recursive: true, force: true });
    scriptServer.close();
  }
});

test('until its scripts have run, a page is the loading screen: the header and a status', async ({
  page,
}) => {
  // The app renders once the first screen's code is here (docs/web.md, "First page"): on a
  // slow network the HTML alone is what people see meanwhile.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/landing');
  await expect(page.getByRole('banner')).toContainText('Sticky');
  await expect(page.getByRole('status')).toHaveText('Loading…');
  await expectNoSeriousAxeViolations(page, 'the loading screen');
});
