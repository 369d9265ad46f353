import { defineConfig } from 'vitest/config';

/**
 * `npm run test:container`: builds the image and runs it beside the test PostgreSQL. Not part
 * of `npm test` (it takes minutes and needs podman or docker with an engine).
 */
export default defineConfig({
  test: {
    name: 'container',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/container/**/*.test.ts'],
    globalSetup: ['./src/test-support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 1_800_000,
  },
});
