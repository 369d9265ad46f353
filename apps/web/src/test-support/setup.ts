import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { installDom } from '@/test-support/dom.ts';

// One wait for every findBy*/waitFor: lazy routes compile on first use under Vitest, and CI
// has gone past Testing Library's 1 s default (docs/testing.md, "Web tests").
configure({ asyncUtilTimeout: 5000 });

// What jsdom lacks, for every test; a test that needs other media queries installs again.
// Stubbed globals are put back after each test (`unstubGlobals` in vitest.config.ts).
beforeEach(() => {
  installDom();
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
