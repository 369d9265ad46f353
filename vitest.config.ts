import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two at a time keeps this 2-core machine responsive; each server file has its own database.
    maxWorkers: 2,
    projects: ['packages/contracts', 'apps/server', 'apps/web'],
  },
});
