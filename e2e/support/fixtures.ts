import { test as base, expect } from '@playwright/test';

export const test = base.extend<object, { stickyUrl: string }>({
  stickyUrl: [
    // Playwright reads fixture dependencies from the destructuring pattern, even an empty one.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const url = process.env.STICKY_E2E_URL;
      if (!url) throw new Error('STICKY_E2E_URL is not set: the global setup did not run');
      await use(url);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ stickyUrl }, use) => {
    await use(stickyUrl);
  },
});

export { expect };
