import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { signInFromLanding, uniqueEmail } from './support/journey.ts';

const screensDir = process.env.STICKY_SCREENS_DIR ?? '';

// The test server runs on loopback with the local sign-in (docs/web.md, "Screens and routes").
test('/admin tells a non-admin on this machine how to become one', async ({ page }) => {
  const email = uniqueEmail('not-admin');
  await page.goto('/landing');
  await signInFromLanding(page, { name: 'Nora Notadmin', email });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admin');
    await expect(page.getByText('Only admins can see this page.')).toBeVisible();
    await expect(page.getByText(`ADMIN_EMAILS=${email}`)).toBeVisible();
    await expectNoSeriousAxeViolations(page, `/admin for a non-admin at ${width}`);
    if (screensDir) await page.screenshot({ path: `${screensDir}/admin-non-admin-${width}.png` });
  }
});
