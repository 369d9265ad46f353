import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe.ts';

/** The widths the journey runs at: a phone, a tablet and a laptop. */
export const journeyWidths = [375, 768, 1280] as const;

/**
 * Signs in from the landing page through the Sign In dialog and the local issuer's form
 * (the server's stand-in for Google), and waits for the home page.
 */
export async function signInFromLanding(
  page: Page,
  user: { name: string; email: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Get started for free' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign In' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** A unique address per test and width, so no two runs share an account. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The grid's items (links) on the current page. */
export function gridLinks(page: Page, listName: string | RegExp) {
  return page.getByRole('list', { name: listName }).getByRole('link');
}

/** Opens the categories panel: a header button on wider screens, the user menu on phones. */
export async function openCategories(page: Page, width: number): Promise<void> {
  if (width < 768) {
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Categories' }).click();
  } else {
    await page.getByRole('button', { name: 'Categories' }).click();
  }
  await expect(page.getByRole('dialog', { name: 'Categories' })).toBeVisible();
}

export async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logged Out')).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/landing');
}

/** Reads a downloaded file's bytes. */
export function readFileBytes(filePath: string): Buffer {
  return fs.readFileSync(filePath);
}

export interface JourneyOptions {
  baseUrl: string;
  width: number;
  user: { name: string; email: string };
  /** A search with results, and one without. */
  searchTerm: string;
  emptySearchTerm: string;
  /** Whether each tab's items link to their own type (`/sticker/…`, `/text/…`). */
  hasTypedItems: boolean;
  /** The original image URL of an item, as the content source serves it. */
  getOriginalUrl: (page: Page, id: string) => Promise<string>;
  /** Checks made on the home page once content shows (e.g. attribution). */
  onHome?: (page: Page) => Promise<void>;
}

const idFromItemPath = (pathname: string) => pathname.split('/').pop()!.split('-').pop()!;

/**
 * The whole journey of the spec, as a user does it: landing → sign in → home and each tab →
 * search (results, none, blank) → a category → an item (Read More/Less, related, favourite,
 * copy, download) → favourites → unfavourite → empty favourites → logout. axe-core checks
 * every screen on the way.
 */
export async function runJourney(page: Page, options: JourneyOptions): Promise<void> {
  const { baseUrl, width } = options;
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });

  // Landing and sign-in.
  await page.goto(`${baseUrl}/landing`);
  await expect(page.getByRole('button', { name: 'Get started for free' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'landing');
  await signInFromLanding(page, options.user);

  // Home: banner, Trending, each tab.
  await expect(page.getByRole('heading', { name: 'Trending' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Sticky: / })).toBeVisible();
  const trending = gridLinks(page, 'Trending');
  await expect(trending.first()).toBeVisible();
  await options.onHome?.(page);
  await expectNoSeriousAxeViolations(page, 'home');
  for (const [label, type, segment] of [
    ['Stickers', 'stickers', 'sticker'],
    ['Text', 'text', 'text'],
    ['GIFs', null, 'gif'],
  ] as const) {
    await page.getByRole('button', { name: label, exact: true }).click();
    await expect(page.getByRole('button', { name: label, exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    if (type) await expect(page).toHaveURL(new RegExp(`[?&]type=${type}`));
    else await expect(page).not.toHaveURL(/type=/);
    await expect(trending.first()).toBeVisible();
    if (options.hasTypedItems) {
      await expect(trending.first()).toHaveAttribute('href', new RegExp(`^/${segment}/`));
    }
  }

  // Search: results, none, blank.
  const searchBox = page.getByRole('searchbox');
  await searchBox.fill(options.searchTerm);
  await searchBox.press('Enter');
  await page.waitForURL(
    (url) => url.pathname === `/search/${encodeURIComponent(options.searchTerm)}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: options.searchTerm })).toBeVisible();
  await expect(searchBox).toHaveValue('');
  await expect(gridLinks(page, `Results for ${options.searchTerm}`).first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'search results');

  await searchBox.fill(options.emptySearchTerm);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(
    page.getByText(
      `No Gifs found for ${options.emptySearchTerm}. Try searching for Stickers instead?`,
      { exact: true },
    ),
  ).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'search without results');
  // Its question is a link: the same search, for stickers.
  await page.getByRole('link', { name: 'Try searching for Stickers instead?' }).click();
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === `/search/${encodeURIComponent(options.emptySearchTerm)}` &&
      url.searchParams.get('type') === 'stickers',
  );
  await expect(page.getByRole('button', { name: 'Stickers' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await searchBox.fill('   ');
  await searchBox.press('Enter');
  await expect(page.getByText('Please write Something...', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(
    new RegExp(`/search/${encodeURIComponent(options.emptySearchTerm)}`),
  );

  // A category.
  await openCategories(page, width);
  const categoriesDialog = page.getByRole('dialog', { name: 'Categories' });
  const firstCategory = categoriesDialog.getByRole('link').first();
  await expect(firstCategory).toBeVisible();
  const categoryName = (await firstCategory.textContent())!.trim();
  const categoryHref = (await firstCategory.getAttribute('href'))!;
  await expectNoSeriousAxeViolations(page, 'categories panel');
  await firstCategory.click();
  await expect(categoriesDialog).toBeHidden();
  await page.waitForURL((url) => url.pathname === categoryHref);
  await expect(page.getByRole('heading', { level: 1, name: categoryName })).toBeVisible();
  const subcategories = page.getByRole('navigation', { name: `${categoryName} subcategories` });
  await expect(subcategories.getByRole('link').first()).toHaveAttribute('aria-current', 'page');
  const categoryItems = page.getByRole('list', { name: new RegExp(`^${categoryName}: `) });
  await expect(categoryItems.getByRole('link').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'category');

  // An item.
  await categoryItems.getByRole('link').first().click();
  await page.waitForURL((url) => /^\/(gif|sticker|text)\/[^/]+$/.test(url.pathname));
  const itemPath = new URL(page.url()).pathname;
  const itemId = idFromItemPath(itemPath);
  const slug = decodeURIComponent(itemPath.split('/').pop()!);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause animation' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'item');

  await page.getByRole('button', { name: 'Read More' }).click();
  await expect(page.getByRole('button', { name: 'Read Less' })).toBeVisible();
  await page.getByRole('button', { name: 'Read Less' }).click();
  await expect(page.getByRole('button', { name: 'Read More' })).toBeVisible();

  await expect(page.getByRole('heading', { name: 'Related Gifs' })).toBeVisible();
  const related = gridLinks(page, 'Related Gifs');
  await expect(related.first()).toBeVisible();
  await expect(related.locator(`[href="${itemPath}"]`)).toHaveCount(0);

  const favorite = page.getByRole('button', { name: 'Favorite', exact: true });
  await favorite.click();
  await expect(page.getByText('Added to Favorites')).toBeVisible();
  await expect(favorite).toHaveAttribute('aria-pressed', 'true');

  const originalUrl = await options.getOriginalUrl(page, itemId);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link Copied!')).toBeVisible();
  await expect(page.locator('[data-highlighted="true"]')).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(originalUrl);

  const downloadStarted = page.waitForEvent('download', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Download' }).click();
  const download = await downloadStarted;
  await expect(page.getByText('Gif Downloaded')).toBeVisible();
  const saved = readFileBytes((await download.path())!);
  const served = await (await page.request.get(originalUrl)).body();
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^${slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(gif|webp)$`),
  );
  expect(saved.equals(served)).toBe(true);
  await expect(page.locator('[data-highlighted="true"]')).toHaveCount(0, { timeout: 6_000 });

  // Favourites, unfavourite, empty.
  await page.getByRole('link', { name: 'Favorite GIFs' }).click();
  await page.waitForURL((url) => url.pathname === '/favorite');
  await expect(page.getByRole('heading', { name: 'My Favorites' })).toBeVisible();
  const favorites = gridLinks(page, 'My Favorites');
  await expect(favorites).toHaveCount(1);
  await expect(favorites.first()).toHaveAttribute('href', itemPath);
  await expectNoSeriousAxeViolations(page, 'favourites');
  await favorites.first().click();
  await page.waitForURL((url) => url.pathname === itemPath);
  await expect(favorite).toHaveAttribute('aria-pressed', 'true');
  await favorite.click();
  await expect(page.getByText('Removed from Favorites')).toBeVisible();
  await expect(favorite).toHaveAttribute('aria-pressed', 'false');
  // On narrow screens the toast covers the header, and hovering a toast pauses it: wait it out.
  await expect(page.getByText('Removed from Favorites')).toBeHidden();
  await page.getByRole('link', { name: 'Favorite GIFs' }).click();
  await expect(page.getByText('No favourites', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /heart/ })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'empty favourites');

  await logout(page);
  expect(pageErrors).toEqual([]);
}
