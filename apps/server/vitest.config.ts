import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The container image's test builds an image for minutes: `npm run test:container`
    // (vitest.container.config.ts; docs/operations.md, "Container image").
    exclude: [...configDefaults.exclude, 'src/container/**'],
    globalSetup: ['./src/test-support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // What a poll waits for here is another process (PostgreSQL's NOTIFY, a reconnect after a
    // pause of a second): on a loaded machine that can take longer than the default second.
    expect: { poll: { timeout: 10_000 } },
  },
});
