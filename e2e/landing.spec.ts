import { expect, test } from './support/fixtures.ts';

test('the landing page renders from the real server', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto('/landing');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Sticky/);
  expect(errors).toEqual([]);
});
