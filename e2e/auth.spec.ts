import { signInErrorMessages } from '@sticky/contracts';
import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const widths = [375, 768, 1280] as const;

function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The local issuer's form: the server's stand-in for Google when none is configured. */
async function fillLocalSignIn(page: Page, user: { name: string; email: string }) {
  await page.waitForURL((url) => url.pathname.startsWith('/oidc/'));
  await expect(page.getByText('This is a local sign-in')).toBeVisible();
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

for (const width of widths) {
  test.describe(`sign-in at ${width} px`, () => {
    test.use({ viewport: { width, height: 860 } });

    test('landing → Get started → Continue with Google → local sign-in → home → Logout', async ({
      page,
    }) => {
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      await page.goto('/');
      await page.waitForURL((url) => url.pathname === '/landing');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Say it with a GIF.');
      await expectNoSeriousAxeViolations(page, `landing at ${width}`);

      await page.getByRole('button', { name: 'Get started for free' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign In' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
      await expectNoSeriousAxeViolations(page, `Sign In dialog at ${width}`);
      await dialog.getByRole('button', { name: 'Continue with Google' }).click();

      await fillLocalSignIn(page, { name: 'Grace Hopper', email: uniqueEmail(`auth${width}`) });
      await page.waitForURL((url) => url.pathname === '/');
      const avatar = page.getByRole('button', { name: 'Account menu for Grace Hopper' });
      await expect(avatar).toHaveText('G');
      await expect(page.getByRole('link', { name: 'Favorite GIFs' })).toBeVisible();
      await expect(page.getByRole('searchbox')).toBeVisible();
      const categoriesButton = page.getByRole('button', { name: 'Categories' });
      if (width < 768) await expect(categoriesButton).toBeHidden();
      else await expect(categoriesButton).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await expectNoSeriousAxeViolations(page, `home at ${width}`);

      await avatar.click();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem')).toHaveText(
        width < 768
          ? [
              'Home',
              'Upload',
              'My uploads',
              'Settings',
              'Categories',
              'Logout',
              'Sign out everywhere',
            ]
          : ['Home', 'Upload', 'My uploads', 'Settings', 'Logout', 'Sign out everywhere'],
      );
      await expectNoSeriousAxeViolations(page, `user menu at ${width}`);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(avatar).toBeFocused();

      await avatar.click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await expect(page.getByText('Logged Out')).toBeVisible();
      await page.waitForURL((url) => url.pathname === '/landing');
      await expect(page.getByRole('button', { name: 'Get Started', exact: true })).toBeVisible();

      // The session is gone on the server too: a protected page sends us back.
      await page.goto('/favorite');
      await page.waitForURL((url) => url.pathname === '/landing');
      const me = await page.request.get('/api/auth/me');
      expect(me.status()).toBe(401);
      expect(pageErrors).toEqual([]);
    });
  });
}

test.describe('sign-in, more paths', () => {
  test.use({ viewport: { width: 1280, height: 860 } });

  test('shows why sign-in failed when the visitor cancels at the issuer', async ({ page }) => {
    await page.goto('/landing');
    await page.getByRole('button', { name: 'Get Started', exact: true }).click();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/oidc/'));
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.waitForURL((url) => url.pathname === '/landing');
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText("We couldn't sign you in");
    await expect(alert).toContainText(signInErrorMessages.access_denied);
    await expectNoSeriousAxeViolations(page, 'landing with a sign-in error');

    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toBeHidden();
    expect(new URL(page.url()).search).toBe('');
  });

  for (const width of widths) {
    test(`shows a sign-in error from the URL at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 860 });
      await page.goto('/landing?error=flow_expired');
      await expect(page.getByRole('alert')).toContainText(signInErrorMessages.flow_expired);
      await expectNoSeriousAxeViolations(page, `sign-in error at ${width}`);
    });
  }

  test('comes back to the page the visitor asked for', async ({ page }) => {
    await page.goto('/favorite');
    await page.waitForURL((url) => url.pathname === '/landing');
    await page.getByRole('button', { name: 'Get started for free' }).click();
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await fillLocalSignIn(page, { name: 'Alan Turing', email: uniqueEmail('return') });
    await page.waitForURL((url) => url.pathname === '/favorite');
    await expect(page.getByRole('button', { name: 'Account menu for Alan Turing' })).toHaveText(
      'A',
    );
  });

  test('keyboard only: sign in dialog opens, traps focus and closes on Escape', async ({
    page,
  }) => {
    await page.goto('/landing');
    await expect(page.getByRole('button', { name: 'Get started for free' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();

    const cta = page.getByRole('button', { name: 'Get started for free' });
    await cta.focus();
    const outline = await cta.evaluate((node) => getComputedStyle(node).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Sign In' });
    await expect(dialog).toBeVisible();
    for (let step = 0; step < 4; step += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(cta).toBeFocused();
  });
});
