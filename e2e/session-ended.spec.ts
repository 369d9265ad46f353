import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';

/**
 * A session that ends on the server while a page is open (expired, or deleted: here by a
 * logout from elsewhere, after which the browser keeps its now-dead cookie) sends the person
 * to /landing at the page's next request, whichever API it goes to (docs/web.md, "State").
 */
test.describe('a session that ends while the app is open', () => {
  test.use({ viewport: { width: 1280, height: 860 } });

  async function signInAndEndSessionElsewhere(page: Page, context: BrowserContext, label: string) {
    await page.goto('/landing');
    await signInFromLanding(page, { name: 'Ada Lovelace', email: uniqueEmail(label) });
    await expect(page.getByRole('heading', { level: 1, name: 'Trending' })).toBeVisible();
    // Keep the cookie, delete its session on the server, and put the cookie back: the browser
    // now holds a session the server no longer knows.
    const cookies = await context.cookies();
    const logout = await page.request.post('/api/auth/logout');
    expect(logout.ok()).toBe(true);
    await context.addCookies(cookies);
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
    await context.addCookies(cookies);
  }

  async function expectLanding(page: Page) {
    await page.waitForURL((url) => url.pathname === '/landing');
    await expect(page.getByRole('button', { name: 'Get started for free' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  }

  test('on /, the next /v1 request (another content type) lands on /landing', async ({
    page,
    context,
  }) => {
    await signInAndEndSessionElsewhere(page, context, 'ended-v1');
    const answer = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/v1/stickers/trending'),
    );
    await page.getByRole('button', { name: 'Stickers' }).click();
    expect((await answer).status()).toBe(401);
    await expectLanding(page);
  });

  test('on /, the next /api request (the favorites) lands on /landing', async ({
    page,
    context,
  }) => {
    await signInAndEndSessionElsewhere(page, context, 'ended-api');
    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/favorites',
    );
    await page.getByRole('link', { name: 'Favorite GIFs' }).click();
    expect((await answer).status()).toBe(401);
    await expectLanding(page);
  });
});
